extension Database {
    /// Writes the database as SQL text that rebuilds it, in the shape of the sqlite3 CLI's `.dump`
    /// (`PRAGMA foreign_keys=OFF; BEGIN TRANSACTION; … COMMIT;`), plus `PRAGMA user_version` when it
    /// is not 0 and the whole database is dumped.
    ///
    /// Reals are written so that they read back bit for bit, blobs as `X'…'`, text that holds a NUL or
    /// is not valid UTF-8 as `CAST(X'…' AS TEXT)`. Rows stream to `sink` as they are read, inside a
    /// read transaction, so the dump is consistent and memory stays bounded.
    ///
    /// ```swift
    /// try db.dump(to: sink)                                                     // everything
    /// try db.dump(to: sink, options: DumpOptions(tablePatterns: ["wine%"], content: .dataOnly))
    /// ```
    /// - Throws: ``DumpError`` when a pattern matches nothing, ``SQLiteError`` from reading, or what
    ///   the sink throws.
    public func dump(to sink: any ByteSink, options: DumpOptions = DumpOptions()) throws {
        try dumpSQL(to: sink, options: options)
    }
}

extension SQLConnection {
    /// ``Database/dump(to:options:)`` on any engine's connection.
    package func dumpSQL(to sink: any ByteSink, options: DumpOptions = DumpOptions()) throws {
        try execute("SAVEPOINT cellar_dump")
        defer { try? execute("RELEASE cellar_dump") }
        var dumper = DatabaseDumper(database: self, options: options, sink: sink)
        try dumper.dump()
    }
}
