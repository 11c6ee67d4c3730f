extension SQLiteError {
    /// A primary SQLite result code by name (<https://sqlite.org/rescode.html>), so callers never compare
    /// with bare numbers.
    ///
    /// ```swift
    /// catch let error as SQLiteError where error.resultCode == .constraint { … }
    /// ```
    public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The numeric code.
        public let rawValue: Int32

        /// A code from its number.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `SQLITE_ERROR`: a generic error (a syntax error, a missing table).
        public static let error = ResultCode(rawValue: 1)
        /// `SQLITE_INTERNAL`.
        public static let `internal` = ResultCode(rawValue: 2)
        /// `SQLITE_PERM`: the access mode of a new database could not be provided.
        public static let permission = ResultCode(rawValue: 3)
        /// `SQLITE_ABORT`: an operation was aborted (a callback asked for it, or a rollback interrupted it).
        public static let abort = ResultCode(rawValue: 4)
        /// `SQLITE_BUSY`: another connection holds a lock (after the busy timeout).
        public static let busy = ResultCode(rawValue: 5)
        /// `SQLITE_LOCKED`: a conflict within this connection or its shared cache.
        public static let locked = ResultCode(rawValue: 6)
        /// `SQLITE_NOMEM`: out of memory.
        public static let noMemory = ResultCode(rawValue: 7)
        /// `SQLITE_READONLY`: an attempt to write a read-only database.
        public static let readOnly = ResultCode(rawValue: 8)
        /// `SQLITE_INTERRUPT`: interrupted (``Database/interrupt()`` or a cancellation).
        public static let interrupt = ResultCode(rawValue: 9)
        /// `SQLITE_IOERR`: the operating system reported an I/O error.
        public static let ioError = ResultCode(rawValue: 10)
        /// `SQLITE_CORRUPT`: the database file is malformed.
        public static let corrupt = ResultCode(rawValue: 11)
        /// `SQLITE_FULL`: the disk (or `max_page_count`) is full.
        public static let full = ResultCode(rawValue: 13)
        /// `SQLITE_CANTOPEN`: the file could not be opened.
        public static let cantOpen = ResultCode(rawValue: 14)
        /// `SQLITE_SCHEMA`: the schema changed.
        public static let schema = ResultCode(rawValue: 17)
        /// `SQLITE_TOOBIG`: a string or blob is too large.
        public static let tooBig = ResultCode(rawValue: 18)
        /// `SQLITE_CONSTRAINT`: a constraint failed (unique, check, not null, foreign key…).
        public static let constraint = ResultCode(rawValue: 19)
        /// `SQLITE_MISMATCH`: a datatype mismatch.
        public static let mismatch = ResultCode(rawValue: 20)
        /// `SQLITE_MISUSE`: the API was used wrongly (a closed connection, no statement to prepare).
        public static let misuse = ResultCode(rawValue: 21)
        /// `SQLITE_AUTH`: an authorizer refused the statement.
        public static let auth = ResultCode(rawValue: 23)
        /// `SQLITE_RANGE`: a parameter index out of range, or a missing or surplus argument.
        public static let range = ResultCode(rawValue: 25)
        /// `SQLITE_NOTADB`: the file is not a database.
        public static let notADatabase = ResultCode(rawValue: 26)

        /// The C name, such as `SQLITE_BUSY`, or the number for a code without a name here.
        public var description: String {
            let names: [Int32: String] = [
                1: "ERROR", 2: "INTERNAL", 3: "PERM", 4: "ABORT", 5: "BUSY", 6: "LOCKED", 7: "NOMEM", 8: "READONLY",
                9: "INTERRUPT", 10: "IOERR", 11: "CORRUPT", 13: "FULL", 14: "CANTOPEN", 17: "SCHEMA", 18: "TOOBIG",
                19: "CONSTRAINT", 20: "MISMATCH", 21: "MISUSE", 23: "AUTH", 25: "RANGE", 26: "NOTADB",
            ]
            return names[rawValue].map { "SQLITE_\($0)" } ?? "SQLite result code \(rawValue)"
        }
    }

    /// The primary result code, by name.
    public var resultCode: ResultCode { ResultCode(rawValue: primaryCode) }
}
