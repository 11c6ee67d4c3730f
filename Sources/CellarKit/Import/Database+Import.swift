internal import CSQLite
import Glibc

extension Database {
    /// Inserts the records of delimited text (CSV by default) into `table`, in one transaction (a
    /// savepoint inside an open one): all of them or, on any error, none.
    ///
    /// When `table` does not exist, the first record names its columns and it is created with TEXT
    /// columns (as the sqlite3 CLI's `.import` does); otherwise every record is a row. Values are bound
    /// as text, so the columns' affinity applies. The input streams through a fixed-size buffer.
    ///
    /// ```swift
    /// let file = FileDescriptorSource(descriptor: descriptor)
    /// let summary = try db.importDelimited(from: file, path: "wines.csv", into: "wine")
    /// ```
    /// - Parameter path: names the input in errors.
    /// - Throws: ``Diagnostic`` at `path:line:column` for a malformed record, a record with the wrong
    ///   number of fields or a row SQLite refuses (with the ``SQLiteError`` as its underlying error);
    ///   what `source` throws.
    @discardableResult
    public func importDelimited(
        from source: any ByteSource, path: String, into table: String, options: ImportOptions = ImportOptions()
    ) throws -> ImportSummary {
        try importRecords(from: source, path: path, into: table, options: options)
    }

    /// Binds the reader's fields straight from its buffer (text, or NULL where they match `null`
    /// unquoted) and runs `insert`: the path a file's import takes, without a copy per field.
    fileprivate func insertRecord(_ reader: DelimitedRecordReader, with insert: Statement, null: [UInt8]?) throws {
        let handle = insert.handle
        try reader.bytes.withUnsafeBufferPointer { bytes in
            for (offset, field) in reader.fields.enumerated() {
                let index = Int32(offset + 1)
                let content = UnsafeBufferPointer(rebasing: bytes[field.start..<field.end])
                let code: Int32
                if let null, !field.isQuoted, content.count == null.count,
                    null.isEmpty
                        || null.withUnsafeBufferPointer({ memcmp($0.baseAddress!, content.baseAddress!, null.count) == 0 })
                {
                    code = sqlite3_bind_null(handle, index)
                } else if let base = content.baseAddress, !content.isEmpty {
                    // Static: the bytes stay put until the step below has run.
                    let text = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
                    code = sqlite3_bind_text(handle, index, text, Int32(content.count), nil)
                } else {
                    code = sqlite3_bind_text(handle, index, "", 0, cellar_transient())
                }
                guard code == SQLITE_OK else { throw SQLiteError.read(from: self.handle, code: code) }
            }
            let code = sqlite3_step(handle)
            let error = code == SQLITE_DONE ? nil : SQLiteError.read(from: self.handle, code: code)
            sqlite3_reset(handle)
            if let error { throw error }
        }
    }
}

extension SQLConnection {
    /// ``Database/importDelimited(from:path:into:options:)`` on any engine's connection: a remote
    /// one runs the same statements (one `INSERT` per record, inside a savepoint) through its server.
    @discardableResult
    package func importRecords(
        from source: any ByteSource, path: String, into table: String, options: ImportOptions = ImportOptions()
    ) throws -> ImportSummary {
        let reader = DelimitedRecordReader(
            source: source, separator: options.separator, recordSeparator: options.recordSeparator,
            honoursQuotes: options.honoursQuotes)
        try execute("SAVEPOINT cellar_import")
        do {
            let summary = try importRecords(reader, path: path, table: table, options: options)
            try execute("RELEASE cellar_import")
            return summary
        } catch {
            try? execute("ROLLBACK TO cellar_import")
            try? execute("RELEASE cellar_import")
            throw error
        }
    }

    private func importRecords(
        _ reader: DelimitedRecordReader, path: String, table: String, options: ImportOptions
    ) throws -> ImportSummary {
        for _ in 0..<options.skippedRecords where try !nextRecord(reader, path: path) {
            return ImportSummary(rowCount: 0, createdTable: false)
        }
        let quotedTable = (options.schema.map { Self.quoted($0) + "." } ?? "") + Self.quoted(table)
        var columnCount = try existingColumnCount(table, schema: options.schema)
        let createsTable = columnCount == nil
        if createsTable {
            guard try nextRecord(reader, path: path) else {
                throw Diagnostic(path: path, message: "no header row to create table '\(table)' from")
            }
            let columns = Self.headerColumnNames(reader.fields.map { reader.text(of: $0) }).map { Self.quoted($0) + " TEXT" }
            // sqlite3's layout: four columns a line.
            let list = columns.enumerated().map { index, column in
                (index == 0 ? "" : index % 4 == 0 ? ",\n " : ", ") + column
            }
            do {
                try execute("CREATE TABLE IF NOT EXISTS \(quotedTable)(\n\(list.joined()))")
            } catch let error as SQLiteError {
                throw Diagnostic(
                    path: path, location: SourceLocation(line: reader.recordLine, column: 1),
                    message: "cannot create table '\(table)' from the header row: \(error.message)", underlying: error)
            }
            columnCount = reader.fields.count
        }
        let width = columnCount ?? 0
        let placeholders = Array(repeating: "?", count: width).joined(separator: ",")
        let insert = try prepareSingle("INSERT INTO \(quotedTable) VALUES(\(placeholders))")
        let null = options.nullText.map { Array($0.utf8) }
        var rowCount = 0
        while try nextRecord(reader, path: path) {
            guard reader.fields.count == width else {
                throw Diagnostic(
                    path: path, location: SourceLocation(line: reader.recordLine, column: 1),
                    message: "expected \(width) fields but found \(reader.fields.count); nothing was imported")
            }
            do {
                try insertRecord(reader, with: insert, null: null)
            } catch let error as SQLiteError {
                throw Diagnostic(
                    path: path, location: SourceLocation(line: reader.recordLine, column: 1),
                    message: "\(error.message); nothing was imported", underlying: error)
            }
            rowCount += 1
        }
        return ImportSummary(rowCount: rowCount, createdTable: createsTable)
    }

    private func nextRecord(_ reader: DelimitedRecordReader, path: String) throws -> Bool {
        do {
            return try reader.next()
        } catch let malformed as DelimitedRecordReader.Malformed {
            throw Diagnostic(
                path: path, location: SourceLocation(line: malformed.line, column: malformed.column),
                message: malformed.message + "; nothing was imported")
        }
    }

    /// `name` as an identifier in double quotes, as the sqlite3 CLI's `.import` writes every name.
    private static func quoted(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// The number of columns of `table`, or nil when there is no such table or view.
    private func existingColumnCount(_ table: String, schema: String?) throws -> Int? {
        let count: Value?
        if let schema {
            count = try scalar("SELECT count(*) FROM pragma_table_info(?1, ?2)", [table, schema])
        } else {
            count = try scalar("SELECT count(*) FROM pragma_table_info(?1)", [table])
        }
        guard case .integer(let count) = count, count > 0 else { return nil }
        return Int(count)
    }

    /// Binds the reader's fields (text, or NULL where they match `null` unquoted) and runs `insert`.
    private func insertRecord(_ reader: DelimitedRecordReader, with insert: PreparedStatement, null: [UInt8]?) throws {
        if let database = localDatabase, let statement = insert as? Statement {
            return try database.insertRecord(reader, with: statement, null: null)
        }
        for (offset, field) in reader.fields.enumerated() {
            let content = reader.bytes[field.start..<field.end]
            let isNull = null.map { !field.isQuoted && content.elementsEqual($0) } ?? false
            try insert.bind(isNull ? nil : Value.text(String(decoding: content, as: UTF8.self)), at: offset + 1)
        }
        while try insert.step() {}
        try insert.reset()
    }

    /// The header's names as sqlite3 3.40's `.import` makes columns of them: an empty name is `?`, and
    /// every name that occurs more than once (in any case) gets `_` and its 1-based position.
    static func headerColumnNames(_ names: [String]) -> [String] {
        let named = names.map { $0.isEmpty ? "?" : $0 }
        var counts: [String: Int] = [:]
        for name in named { counts[name.lowercased(), default: 0] += 1 }
        return named.enumerated().map { index, name in
            (counts[name.lowercased()] ?? 0) > 1 ? "\(name)_\(index + 1)" : name
        }
    }
}
