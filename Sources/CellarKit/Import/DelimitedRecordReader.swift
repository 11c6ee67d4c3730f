/// Reads records of delimited text from a byte source, one at a time, in bounded memory: CSV as
/// RFC 4180 has it (`"…"` quotes a field, `""` is a quote inside one, a quoted field may hold
/// separators and line breaks), with any one-byte column separator.
///
/// Records end in `\n` or `\r\n`; a UTF-8 byte order mark at the start is skipped; blank lines are
/// skipped. The fields of the current record are ``fields``, ranges into ``bytes``.
final class DelimitedRecordReader {
    /// One field of the current record.
    struct Field {
        /// Where its content starts in ``DelimitedRecordReader/bytes``.
        var start: Int
        /// Where its content ends.
        var end: Int
        /// Whether it was written between quotes (an empty quoted field is an empty string, never NULL).
        var isQuoted: Bool
        /// The number of bytes of content.
        var count: Int { end - start }
    }

    /// Why a record cannot be read, and where (1-based line and byte column).
    struct Malformed: Error {
        let line: Int
        let column: Int
        let message: String
    }

    private enum State { case fieldStart, unquoted, quoted, afterQuote, afterQuoteReturn }

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")
    private static let chunkSize = 1 << 16

    private let source: any ByteSource
    private let separator: UInt8
    /// The byte that ends a record (`\n`, before which a `\r` is dropped, or another).
    private let recordEnd: UInt8
    private let honoursQuotes: Bool
    private let chunk: UnsafeMutableBufferPointer<UInt8>
    // The reader is used by one thread and never hands out its state while it changes it: Swift's
    // dynamic exclusivity checks on these (a runtime call per access, a quarter of an import's
    // instructions) are off.
    @exclusivity(unchecked) private var position = 0
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var isAtEnd = false
    @exclusivity(unchecked) private var hasStarted = false
    /// Bytes consumed before the current chunk (for columns).
    @exclusivity(unchecked) private var chunkOffset = 0
    /// The offset of the first byte of the current line.
    @exclusivity(unchecked) private var lineOffset = 0

    /// The content of the current record's fields, one after the other.
    @exclusivity(unchecked) private(set) var bytes: [UInt8] = []
    /// The current record's fields.
    @exclusivity(unchecked) private(set) var fields: [Field] = []
    /// The line the current record starts on.
    @exclusivity(unchecked) private(set) var recordLine = 1
    /// The line being read.
    @exclusivity(unchecked) private var line = 1

    /// Creates a reader of `source` whose fields are separated by `separator` and records by
    /// `recordSeparator`; `"…"` quotes a field unless `honoursQuotes` is false.
    init(
        source: any ByteSource, separator: UInt8, recordSeparator: UInt8 = UInt8(ascii: "\n"), honoursQuotes: Bool = true
    ) {
        self.source = source
        self.separator = separator
        self.recordEnd = recordSeparator
        self.honoursQuotes = honoursQuotes
        chunk = .allocate(capacity: Self.chunkSize)
        bytes.reserveCapacity(4096)
    }

    deinit {
        chunk.deallocate()
    }

    /// Reads the next record into ``fields``.
    ///
    /// - Returns: false at the end of the input.
    /// - Throws: ``Malformed`` for a quote out of place or an unterminated quoted field; what the
    ///   source throws.
    func next() throws -> Bool {
        while true {
            guard try readRecord() else { return false }
            let isBlank = fields.count == 1 && fields[0].count == 0 && !fields[0].isQuoted
            if !isBlank { return true }
        }
    }

    /// The content of `field` as a string (for a header row).
    func text(of field: Field) -> String {
        String(decoding: bytes[field.start..<field.end], as: UTF8.self)
    }

    // MARK: - Scanning

    private func readRecord() throws -> Bool {
        bytes.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        recordLine = line
        var state = State.fieldStart
        var fieldStart = 0
        var isQuoted = false
        var quoteLine = line
        var quoteColumn = 1
        while true {
            if position == count {
                try refill()
                if isAtEnd {
                    switch state {
                    case .quoted:
                        throw Malformed(line: quoteLine, column: quoteColumn, message: "this quoted field is never closed")
                    case .fieldStart where fields.isEmpty:
                        return false
                    default:
                        endField(from: fieldStart, isQuoted: isQuoted, trimsReturn: state == .unquoted && trimsReturns)
                        return true
                    }
                }
            }
            var index = position
            defer { position = index }
            switch state {
            case .fieldStart:
                fieldStart = bytes.count
                isQuoted = honoursQuotes && chunk[index] == Self.quote
                if isQuoted {
                    quoteLine = line
                    quoteColumn = chunkOffset + index - lineOffset + 1
                    index += 1
                    state = .quoted
                } else {
                    state = .unquoted
                }
            case .unquoted:
                let end = Self.firstIndex(of: separator, or: recordEnd, in: chunk, from: index, to: count)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[index..<end]))
                index = end
                guard end < count else { continue }
                endField(from: fieldStart, isQuoted: false, trimsReturn: chunk[end] == recordEnd && trimsReturns)
                index += 1
                if chunk[end] == recordEnd {
                    startLine(at: end)
                    return true
                }
                state = .fieldStart
            case .quoted:
                var end = index
                while true {
                    end = Self.firstIndex(of: Self.quote, or: recordEnd, in: chunk, from: end, to: count)
                    guard end < count, chunk[end] == recordEnd, recordEnd != Self.quote else { break }
                    startLine(at: end)
                    end += 1
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[index..<end]))
                index = end
                guard end < count else { continue }
                index += 1
                state = .afterQuote
            case .afterQuote:
                let byte = chunk[index]
                index += 1
                switch byte {
                case Self.quote:
                    bytes.append(Self.quote)
                    state = .quoted
                case separator:
                    endField(from: fieldStart, isQuoted: true, trimsReturn: false)
                    state = .fieldStart
                case recordEnd:
                    endField(from: fieldStart, isQuoted: true, trimsReturn: false)
                    startLine(at: index - 1)
                    return true
                case Self.carriageReturn where trimsReturns:
                    state = .afterQuoteReturn
                default:
                    throw malformed(
                        at: index - 1,
                        "a character follows the closing quote of a field (write \"\" for a quote inside a quoted field)")
                }
            case .afterQuoteReturn:
                guard chunk[index] == Self.lineFeed else {
                    throw malformed(
                        at: index, "a carriage return follows the closing quote of a field without a line feed after it")
                }
                index += 1
                endField(from: fieldStart, isQuoted: true, trimsReturn: false)
                startLine(at: index - 1)
                return true
            }
        }
    }

    /// The index of the first byte from `start` to `end` (excluded) that is `first` or `second`, else
    /// `end`; eight bytes at a time (a field's bytes are most of the input).
    private static func firstIndex(
        of first: UInt8, or second: UInt8, in chunk: UnsafeMutableBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> Int {
        let base = UnsafeRawPointer(chunk.baseAddress!)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let firsts = ones &* UInt64(first)
        let seconds = ones &* UInt64(second)
        var index = start
        while index + 8 <= end {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // A byte equal to the one looked for is a zero byte of the exclusive or; the lowest high
            // bit set marks the first (bits above it may be set by the borrow, never below).
            let a = word ^ firsts
            let b = word ^ seconds
            let zeros = ((a &- ones) & ~a | (b &- ones) & ~b) & highs
            if zeros != 0 { return index + zeros.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < end, chunk[index] != first, chunk[index] != second { index += 1 }
        return index
    }

    /// Whether a `\r` before the record's end is dropped (records end in `\n` or `\r\n`).
    private var trimsReturns: Bool { recordEnd == Self.lineFeed }

    private func endField(from start: Int, isQuoted: Bool, trimsReturn: Bool) {
        if trimsReturn, bytes.count > start, bytes[bytes.count - 1] == Self.carriageReturn { bytes.removeLast() }
        fields.append(Field(start: start, end: bytes.count, isQuoted: isQuoted))
    }

    private func startLine(at lineFeedIndex: Int) {
        line += 1
        lineOffset = chunkOffset + lineFeedIndex + 1
    }

    private func malformed(at index: Int, _ message: String) -> Malformed {
        Malformed(line: line, column: chunkOffset + index - lineOffset + 1, message: message)
    }

    private func refill() throws {
        guard !isAtEnd else { return }
        chunkOffset += count
        position = 0
        count = try source.read(into: UnsafeMutableRawBufferPointer(chunk))
        if count == 0 { isAtEnd = true }
        if !hasStarted {
            hasStarted = true
            // A UTF-8 byte order mark (spreadsheets write one) is not part of the first field.
            if count >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF {
                position = 3
                lineOffset = 3
            }
        }
    }
}
