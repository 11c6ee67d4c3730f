/// Why a table is rebuilt, in the words of the rebuild's comment: `rating INTEGER → REAL`.
extension PlanBuilder {
    func differences(_ current: SchemaCatalog.Table, _ new: SchemaCatalog.Table) throws -> [String] {
        var reasons: [String] = []
        for column in new.columns {
            guard let old = current.column(column.name) else {
                reasons.append("adds column \(column.name)")
                continue
            }
            reasons += Self.changes(of: old, to: column)
        }
        reasons += current.columns.filter { new.column($0.name) == nil }.map { "drops column \($0.name)" }
        let order = { (table: SchemaCatalog.Table, other: SchemaCatalog.Table) in
            table.columns.filter { other.column($0.name) != nil }.map(\.key)
        }
        if order(current, new) != order(new, current) { reasons.append("columns reordered") }
        if current.isStrict != new.isStrict { reasons.append(new.isStrict ? "STRICT added" : "STRICT removed") }
        if current.isWithoutRowid != new.isWithoutRowid {
            reasons.append(new.isWithoutRowid ? "WITHOUT ROWID added" : "WITHOUT ROWID removed")
        }
        let oldIncrement = DefinitionText(current.object.sql).hasAutoincrement
        let newIncrement = DefinitionText(new.object.sql).hasAutoincrement
        if oldIncrement != newIncrement { reasons.append(newIncrement ? "AUTOINCREMENT added" : "AUTOINCREMENT removed") }
        if try foreignKeys(of: current.name, in: work) != foreignKeys(of: new.name, in: desired) {
            reasons.append("foreign keys changed")
        }
        return reasons.isEmpty ? ["constraints changed"] : reasons
    }

    private static func changes(of old: SchemaCatalog.Column, to new: SchemaCatalog.Column) -> [String] {
        var reasons: [String] = []
        let type = { (column: SchemaCatalog.Column) in column.declaredType.isEmpty ? "(no type)" : column.declaredType }
        if old.declaredType.uppercased() != new.declaredType.uppercased() {
            reasons.append("\(new.name) \(type(old)) → \(type(new))")
        }
        if old.isNotNull != new.isNotNull { reasons.append("\(new.name) NOT NULL \(new.isNotNull ? "added" : "removed")") }
        if old.defaultText != new.defaultText {
            reasons.append("\(new.name) default \(old.defaultText ?? "none") → \(new.defaultText ?? "none")")
        }
        if old.primaryKeyPosition != new.primaryKeyPosition { reasons.append("\(new.name) primary key changed") }
        if old.hidden != new.hidden { reasons.append("\(new.name) generated column changed") }
        return reasons
    }

    /// The foreign keys of `table` as `pragma_foreign_key_list` reports them, in a comparable form.
    private func foreignKeys(of table: String, in connection: any SQLConnection) throws -> [String] {
        try connection.query(
            "SELECT \"table\", \"from\", \"to\", on_update, on_delete, \"match\" FROM pragma_foreign_key_list(?)", [table]
        ).map { row in row.values.map { SchemaCatalog.key($0.ledgerText) }.joined(separator: "\u{1F}") }.sorted()
    }
}
