/// The unfinished part of a script being streamed: bytes read but not yet run, with the position of
/// its first byte in the whole file, so that memory holds one chunk plus the current statement while
/// every error can still name its line and column.
///
/// Reading checks the encoding as it goes: a UTF-8 byte-order mark is skipped; UTF-16 (by its
/// byte-order mark or a NUL byte) and invalid UTF-8 are errors at the first bad byte; a script with a
/// CR and no LF (CR-only line ends) is an error at its first CR, before any statement runs.
struct ScriptBuffer: LocatableText {
    /// What went wrong with the bytes themselves.
    struct EncodingError: Error {
        /// Index in ``ScriptBuffer/bytes`` of the first bad byte.
        let index: Int
        let message: String
        /// Whether the text is UTF-16, whose line cannot be shown as text.
        var isUTF16 = false
    }

    /// Bytes from ``startLocation`` on; index 0 is that position.
    private(set) var bytes: [UInt8] = []
    /// The line and column of `bytes[0]` in the file.
    private(set) var startLocation = SourceLocation(line: 1, column: 1)
    /// Index of the first byte not yet handed out as part of a complete statement run.
    var consumed = 0
    /// Whether the source has no more bytes.
    private(set) var isAtEnd = false
    private var validated = 0
    /// Where statements end, found as bytes are validated; `scanned` bytes have been fed to it.
    private var boundaries = StatementBoundaryScanner()
    private var scanned = 0
    /// The index just past the last statement end found.
    private var lastBoundary: Int?
    private var hasCheckedByteOrderMark = false
    /// Whether a validated byte was an LF: then a CR is data, not a line end.
    private var hasLineFeed = false
    /// Index of the first CR validated while no LF has been, if any: statements wait until an LF shows
    /// that line ends are not CR only, and the end of input without one is an error.
    private var firstCarriageReturn: Int?
    private let source: any ByteSource
    private let chunkSize: Int

    /// How much of a long line before the current statement is kept to show in an error.
    private static let keptLineLimit = 1 << 16

    init(source: any ByteSource, chunkSize: Int = 1 << 20) {
        self.source = source
        self.chunkSize = chunkSize
    }

    // MARK: - Reading

    /// Reads the next chunk and appends it.
    mutating func readChunk() throws {
        let oldCount = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: chunkSize))
        let readCount: Int
        do {
            readCount = try bytes.withUnsafeMutableBytes { raw in
                try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[oldCount...]))
            }
        } catch {
            bytes.removeLast(chunkSize)
            throw error
        }
        bytes.removeLast(chunkSize - readCount)
        if readCount == 0 { isAtEnd = true }
        if !hasCheckedByteOrderMark, bytes.count >= 3 || isAtEnd {
            hasCheckedByteOrderMark = true
            try checkByteOrderMark()
        }
    }

    private mutating func checkByteOrderMark() throws {
        if bytes.starts(with: TextEncodingCheck.utf8ByteOrderMark) {
            bytes.removeFirst(3)
        } else if TextEncodingCheck.hasUTF16ByteOrderMark(bytes) {
            throw EncodingError(index: 0, message: TextEncodingCheck.utf16Message, isUTF16: true)
        }
    }

    /// Checks bytes read since the last call; a sequence cut by the end of the chunk waits for the next.
    mutating func validate() throws {
        guard hasCheckedByteOrderMark else { return }
        var hasLineFeed = hasLineFeed
        var firstCarriageReturn = firstCarriageReturn
        defer {
            self.hasLineFeed = hasLineFeed
            self.firstCarriageReturn = hasLineFeed ? nil : firstCarriageReturn
        }
        let result: EncodingError? = bytes.withUnsafeBufferPointer { buffer in
            var index = validated
            let raw = UnsafeRawPointer(buffer.baseAddress)
            while index < buffer.count {
                let byte = buffer[index]
                if byte >= 0x20, byte < 0x80 {
                    index += 1
                    // Eight printable ASCII bytes at a time (no high bit, none below 0x20): nothing to check.
                    while let raw, index + 8 <= buffer.count {
                        let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                        let ones: UInt64 = 0x0101_0101_0101_0101
                        guard word & (ones &* 0x80) == 0, (word &- ones &* 0x20) & ~word & (ones &* 0x80) == 0 else { break }
                        index += 8
                    }
                    continue
                }
                if byte == 0 {
                    return EncodingError(index: index, message: TextEncodingCheck.nulMessage)
                }
                if byte < 0x80 {
                    if byte == UInt8(ascii: "\n") {
                        hasLineFeed = true
                    } else if byte == UInt8(ascii: "\r"), firstCarriageReturn == nil {
                        firstCarriageReturn = index
                    }
                    index += 1
                    continue
                }
                if let (_, length) = UTF8Validation.decodeScalar(in: buffer, at: index) {
                    index += length
                    continue
                }
                if !isAtEnd, Self.isTruncatedSequence(buffer, at: index) { break }
                return EncodingError(index: index, message: TextEncodingCheck.invalidByteMessage(byte))
            }
            validated = index
            return nil
        }
        if let result { throw result }
        if isAtEnd, !hasLineFeed, let firstCarriageReturn {
            throw EncodingError(index: firstCarriageReturn, message: TextEncodingCheck.carriageReturnMessage)
        }
    }

    /// Whether the bytes from `index` to the end are the valid start of a longer sequence.
    private static func isTruncatedSequence(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let lead = buffer[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
        guard length > 0, index + length > buffer.count else { return false }
        return buffer[(index + 1)...].allSatisfy { $0 & 0xC0 == 0x80 }
    }

    /// The end of the validated bytes: statements are looked for only there.
    var validatedEnd: Int { validated }

    // MARK: - Statement boundaries

    /// The index just past the last complete statement in `bytes[consumed..<validatedEnd]`, as
    /// `sqlite3_complete` decides (<https://sqlite.org/c3ref/complete.html>), or nil when there is
    /// none yet. At the end of input everything left counts.
    ///
    /// Each byte is scanned once, whatever the statement's length: a one-line script of any size or a
    /// statement spread over many chunks stays linear.
    mutating func completeEnd() -> Int? {
        if isAtEnd { return validated }
        if firstCarriageReturn != nil { return nil }
        let found = bytes.withUnsafeBufferPointer { boundaries.scan(UnsafeBufferPointer(rebasing: $0[scanned..<validated])) }
        if let found { lastBoundary = scanned + found }
        scanned = validated
        guard let lastBoundary, lastBoundary > consumed else { return nil }
        return lastBoundary
    }

    /// Calls `body` with `bytes[..<end]` followed by a NUL byte (written in place and restored).
    ///
    /// `sqlite3_prepare_v2` copies its whole input unless the byte count includes a NUL terminator,
    /// which would make preparing statement after statement from one chunk quadratic.
    mutating func withTerminatedBytes<Result>(upTo end: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        let isAppended = end == bytes.count
        let saved: UInt8 = isAppended ? 0 : bytes[end]
        if isAppended { bytes.append(0) } else { bytes[end] = 0 }
        defer { if isAppended { bytes.removeLast() } else { bytes[end] = saved } }
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[...end])) }
    }

    // MARK: - Positions

    /// Drops the bytes before the current statement's line (keeping at most 64 KiB of that line to
    /// show in an error), moving ``startLocation`` on.
    mutating func discardConsumed() {
        var keep = consumed
        while keep > 0, consumed - keep < Self.keptLineLimit, bytes[keep - 1] != UInt8(ascii: "\n") { keep -= 1 }
        guard keep > 0 else { return }
        startLocation = bytes.withUnsafeBufferPointer {
            startLocation.advanced(over: UnsafeBufferPointer(rebasing: $0[..<keep]))
        }
        bytes.removeFirst(keep)
        consumed -= keep
        validated -= keep
        scanned -= keep
        lastBoundary = lastBoundary.map { $0 - keep }
    }

    /// The line and column of `index`.
    func location(of index: Int) -> SourceLocation {
        bytes.withUnsafeBufferPointer {
            startLocation.advanced(over: UnsafeBufferPointer(rebasing: $0[..<min(index, $0.count)]))
        }
    }

    /// The text of the line holding `index`, or nil when its start was already dropped.
    func lineText(at index: Int) -> String? {
        var start = min(index, bytes.count)
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        if start == 0, startLocation.column != 1 { return nil }
        var end = min(index, bytes.count)
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
