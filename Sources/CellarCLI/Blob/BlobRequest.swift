/// One `blob put|get TABLE COLUMN ROWID FILE|-`, from the command line or the shell's `.blob`.
struct BlobRequest {
    /// Which way the bytes go.
    enum Direction: String {
        /// From FILE into the cell.
        case put
        /// From the cell into FILE.
        case get
    }

    let direction: Direction
    let table: String
    let column: String
    let rowID: Int64
    /// The file, or `-` for standard input or output.
    let path: String
    /// `--insert`: create the row when it does not exist (put).
    var createsRow = false
    /// `--size N`: how many bytes standard input or a pipe holds (put).
    var declaredSize: Int?
    /// `--force`: write binary to a terminal (get).
    var writesToTerminal = false

    /// `put TABLE COLUMN ROWID FILE`, as positional words.
    ///
    /// - Throws: a one-line message for a wrong word count, direction or rowid.
    init(words: [String]) throws(BlobRequestError) {
        guard let first = words.first, let direction = Direction(rawValue: first) else {
            throw BlobRequestError("the first argument is put or get, not '\(words.first ?? "")'")
        }
        guard words.count == 5 else {
            throw BlobRequestError(
                "\(direction.rawValue) takes TABLE COLUMN ROWID FILE (or - for standard \(direction == .put ? "input" : "output"))"
            )
        }
        guard let rowID = Int64(words[3]) else { throw BlobRequestError("ROWID is a whole number, not '\(words[3])'") }
        self.direction = direction
        table = words[1]
        column = words[2]
        self.rowID = rowID
        path = words[4]
    }

    /// Checks the options against the direction and stores them.
    mutating func apply(insert: Bool, size: String?, force: Bool) throws(BlobRequestError) {
        if direction == .get, insert || size != nil {
            throw BlobRequestError("--insert and --size go with put, not get")
        }
        if direction == .put, force { throw BlobRequestError("--force goes with get, not put") }
        if let size {
            guard let count = Int(size), count >= 0 else {
                throw BlobRequestError("--size expects a number of bytes, not '\(size)'")
            }
            declaredSize = count
        }
        createsRow = insert
        writesToTerminal = force
    }

    /// `wine.label, rowid 7`.
    var cellName: String { "\(table).\(column), rowid \(rowID)" }
}

/// A `blob` command line that does not make sense, in one line.
struct BlobRequestError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
