extension SchemaPlan {
    /// A table's rows before and after a plan ran on a copy of a database.
    public struct TableRows: Sendable, Equatable, CustomStringConvertible {
        /// The table's name after the plan (its new name when it was renamed).
        public let table: String
        /// Rows before; nil for a table the plan creates.
        public let before: Int?
        /// Rows after; nil for a table the plan drops.
        public let after: Int?

        /// `wines: 1,204 → 1,204 rows`.
        public var description: String {
            let count = { (value: Int?) in value.map(String.init) ?? "none" }
            return "\(table): \(count(before)) → \(count(after)) rows"
        }
    }

    /// Runs the plan on an in-memory copy of `database`, as the migrator runs a migration (one
    /// transaction, foreign keys off, `foreign_key_check` afterwards), and counts each table's rows
    /// before and after; `database` is not changed.
    ///
    /// - Parameter renames: the table renames the plan makes, so that a renamed table's rows are
    ///   compared under its new name.
    /// - Returns: each table's rows, by name.
    /// - Throws: ``SchemaPlanError/rowsLost(_:)`` when a table the plan does not drop has fewer rows,
    ///   ``SchemaPlanError/foreignKeyViolations(count:tables:)``, ``SchemaPlanError/rehearsalFailed(statement:message:)``,
    ///   or ``SQLiteError`` when the copy cannot be made.
    package func rehearse(on database: any SQLConnection, renames: [SchemaRename] = []) throws -> [TableRows] {
        let copy = try database.rehearsalCopy()
        try copy.execute("PRAGMA foreign_keys = OFF")
        let before = try Self.rowCounts(in: copy)
        do {
            try copy.transaction { try copy.execute(sql) }
        } catch let error as SQLiteError {
            throw SchemaPlanError.rehearsalFailed(statement: error.failingStatement ?? "", message: error.message)
        }
        let violations = try copy.query("PRAGMA foreign_key_check")
        if !violations.isEmpty {
            throw SchemaPlanError.foreignKeyViolations(
                count: violations.count, tables: Array(Set(violations.map { $0[0].ledgerText })).sorted())
        }
        let after = try Self.rowCounts(in: copy)
        var renamed: [String: String] = [:]
        for rename in renames where rename.column == nil { renamed[SchemaCatalog.key(rename.table)] = rename.newName }
        var rows: [TableRows] = []
        var seen: Set<String> = []
        for (key, entry) in before.sorted(by: { $0.key < $1.key }) {
            let newName = renamed[key] ?? entry.name
            let newKey = SchemaCatalog.key(newName)
            seen.insert(newKey)
            rows.append(TableRows(table: after[newKey]?.name ?? newName, before: entry.rows, after: after[newKey]?.rows))
        }
        for (key, entry) in after.sorted(by: { $0.key < $1.key }) where !seen.contains(key) {
            rows.append(TableRows(table: entry.name, before: nil, after: entry.rows))
        }
        let lost = rows.filter { row in row.after.map { $0 < (row.before ?? 0) } ?? false }
        guard lost.isEmpty else { throw SchemaPlanError.rowsLost(lost) }
        return rows
    }

    private static func rowCounts(in connection: any SQLConnection) throws -> [String: (name: String, rows: Int)] {
        var counts: [String: (name: String, rows: Int)] = [:]
        for table in try SchemaCatalog.read(from: connection).orderedTables where !table.isVirtual {
            let count = try connection.scalar("SELECT count(*) FROM \(PlanBuilder.quoted(table.name))")
            counts[table.object.key] = (table.name, Int(count?.ledgerText ?? "") ?? 0)
        }
        return counts
    }
}
