import Glibc

/// Reads the rows of a ROWS frame in place: ``advance()`` locates a row's values in the frame's bytes
/// (a header of 4-bit type codes padded to the word, then one or more words per value) and the
/// accessors read them from there, so that reading a row allocates nothing.
///
/// Every read stays inside the frame: a frame cut short, a text without its NUL or an unknown type code
/// is a protocol violation when the row holding it is reached, never a read past the end. The bytes
/// must stay valid and unchanged while the cursor is used.
struct RowCursor {
    /// Where one value of the current row lies in the frame.
    struct Cell {
        /// The storage class the value reads as.
        var storageClass: DqliteValue.StorageClass
        /// Whether the value's word is a boolean (read as 0 or 1).
        var isBoolean: Bool
        /// The value's first byte: its word for numbers, its first byte for text and blobs.
        var start: Int
        /// The bytes of a text (without its NUL) or blob.
        var count: Int
    }

    private let bytes: UnsafeRawBufferPointer
    /// Where the next row, or the frame's end word, starts.
    private var offset: Int
    /// The current row's cells (one per column), rewritten in place for each row.
    private var cells: [Cell]
    /// Whether the end word was read: no row is left in this frame.
    private(set) var isAtEnd = false

    /// A cursor before the first row, which starts at `start` in `bytes`.
    /// - Throws: ``DqliteError/protocolViolation(_:)`` when nothing follows the column names.
    init(_ bytes: UnsafeRawBufferPointer, from start: Int, columnCount: Int, reusing cells: [Cell] = []) throws {
        self.bytes = bytes
        offset = start
        var cells = cells
        cells.removeAll(keepingCapacity: true)
        cells.append(
            contentsOf: repeatElement(Cell(storageClass: .null, isBoolean: false, start: 0, count: 0), count: columnCount))
        self.cells = cells
        try readEndIfThere()
    }

    /// The cells, to be reused by the cursor of the next frame.
    var reusableCells: [Cell] { cells }

    /// Moves to the next row of the frame, locating its values.
    /// - Returns: false when the frame has no row left.
    /// - Throws: ``DqliteError/protocolViolation(_:)`` when the row is malformed or cut short.
    mutating func advance() throws -> Bool {
        guard !isAtEnd else { return false }
        guard !cells.isEmpty else { throw DqliteError.protocolViolation("a row in a result without columns") }
        let headerStart = offset
        offset = try paddedEnd(of: headerStart, count: (cells.count + 1) / 2, what: "a row header")
        for column in cells.indices {
            let slot = bytes[headerStart + column / 2]
            try locate(column, code: column % 2 == 0 ? slot & 0x0f : slot >> 4)
        }
        try readEndIfThere()
        return true
    }

    /// Leaves the rest of the frame unread.
    mutating func finish() {
        isAtEnd = true
    }

    // MARK: - The current row

    func storageClass(at column: Int) -> DqliteValue.StorageClass { cells[column].storageClass }

    /// The value as an integer: 0 unless it is one.
    func integer(at column: Int) -> Int64 {
        let cell = cells[column]
        guard cell.storageClass == .integer else { return 0 }
        let word = self.word(at: cell.start)
        return cell.isBoolean ? (word == 0 ? 0 : 1) : Int64(bitPattern: word)
    }

    /// The value as a real: 0 unless it is one.
    func real(at column: Int) -> Double {
        let cell = cells[column]
        return cell.storageClass == .real ? Double(bitPattern: word(at: cell.start)) : 0
    }

    /// The bytes of a text (without its NUL) or blob, in the frame; none for any other value.
    func bytes(at column: Int) -> UnsafeBufferPointer<UInt8> {
        let cell = cells[column]
        guard cell.count > 0, cell.storageClass == .text || cell.storageClass == .blob else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(
            start: (bytes.baseAddress! + cell.start).assumingMemoryBound(to: UInt8.self), count: cell.count)
    }

    /// The value, decoded (text and blobs copied out of the frame).
    func value(at column: Int) -> DqliteValue {
        switch storageClass(at: column) {
        case .null: .null
        case .integer: .integer(integer(at: column))
        case .real: .real(real(at: column))
        case .text: .text(String(decoding: bytes(at: column), as: UTF8.self))
        case .blob: .blob(Array(bytes(at: column)))
        }
    }

    // MARK: - Reading

    /// The 8-byte little-endian word at `start`.
    private func word(at start: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
    }

    /// Locates the value of `column`, whose wire type is `code`, at ``offset`` and moves past it.
    private mutating func locate(_ column: Int, code: UInt8) throws {
        guard let type = WireCode.ValueType(rawValue: code) else {
            throw DqliteError.protocolViolation("unknown value type \(code) in a row")
        }
        let start = offset
        switch type {
        case .integer, .unixTime, .boolean:
            offset = try paddedEnd(of: start, count: 8, what: "an integer")
            cells[column] = Cell(storageClass: .integer, isBoolean: type == .boolean, start: start, count: 0)
        case .float:
            offset = try paddedEnd(of: start, count: 8, what: "a real")
            cells[column] = Cell(storageClass: .real, isBoolean: false, start: start, count: 0)
        case .null:
            offset = try paddedEnd(of: start, count: 8, what: "a NULL")
            cells[column] = Cell(storageClass: .null, isBoolean: false, start: start, count: 0)
        case .text, .iso8601:
            let count = try textLength(from: start)
            offset = try paddedEnd(of: start, count: count + 1, what: "a text")
            // dqlite sends a NULL or empty text of a date column as an empty timestamp.
            let storageClass: DqliteValue.StorageClass = type == .iso8601 && count == 0 ? .null : .text
            cells[column] = Cell(storageClass: storageClass, isBoolean: false, start: start, count: count)
        case .blob:
            let lengthEnd = try paddedEnd(of: start, count: 8, what: "a blob's length")
            let length = word(at: start)
            guard length <= UInt64(bytes.count - lengthEnd) else {
                throw DqliteError.protocolViolation(
                    "blob of \(length) bytes in a row with \(bytes.count - lengthEnd) bytes left in its frame")
            }
            offset = try paddedEnd(of: lengthEnd, count: Int(length), what: "a blob")
            cells[column] = Cell(storageClass: .blob, isBoolean: false, start: lengthEnd, count: Int(length))
        }
    }

    /// The bytes of the NUL-terminated text at `start`, without the NUL.
    private func textLength(from start: Int) throws -> Int {
        guard start < bytes.count, let end = memchr(bytes.baseAddress! + start, 0, bytes.count - start) else {
            throw DqliteError.protocolViolation("a text in a row without its terminating NUL")
        }
        return UnsafeRawPointer(end) - (bytes.baseAddress! + start)
    }

    /// Where `count` bytes from `start`, padded to the next word, end.
    /// - Throws: ``DqliteError/protocolViolation(_:)`` when the frame ends before.
    private func paddedEnd(of start: Int, count: Int, what: String) throws -> Int {
        let end = start + (count + WireCode.wordSize - 1) / WireCode.wordSize * WireCode.wordSize
        guard end <= bytes.count else {
            throw DqliteError.protocolViolation("a ROWS frame ends \(end - bytes.count) bytes early, in \(what)")
        }
        return end
    }

    /// Reads the frame's end word when it comes next: `0xff…` (done) or `0xee…` (another frame follows).
    /// No row header starts so: `0xf` and `0xe` are no type codes.
    private mutating func readEndIfThere() throws {
        guard offset < bytes.count else { throw DqliteError.protocolViolation("a ROWS frame ends without its end marker") }
        let first = bytes[offset]
        guard first == WireCode.rowsDone || first == WireCode.rowsPart else { return }
        offset = try paddedEnd(of: offset, count: 8, what: "the end marker")
        isAtEnd = true
    }
}
