/// The 12-step rebuild of <https://sqlite.org/lang_altertable.html#otheralter>, for every change to a
/// table that `ALTER TABLE` cannot make. Foreign keys are off while it runs (the migrator turns them off
/// outside the transaction and checks them before it commits), so dropping the old table cascades
/// nothing; the views and triggers that refer to it are dropped first, because renaming the new table
/// checks every view and trigger of the schema, and created again afterwards from the SQL SQLite stored
/// for them.
extension PlanBuilder {
    mutating func rebuild(_ current: SchemaCatalog.Table, into new: SchemaCatalog.Table) throws {
        let others = try SchemaCatalog.read(from: work, tables: []).orderedOthers
        let dependents = Self.dependents(of: current, among: others)
        let temporary = try temporaryName(for: current.name)
        guard let createNew = DefinitionText(new.object.sql).renamingTable(to: Self.quoted(temporary)) else {
            throw SchemaPlanError.unsupported(object: new.object.label, reason: "its CREATE TABLE statement has no column list")
        }
        var statements = dependents.triggers.map { "DROP TRIGGER \(Self.quoted($0.name))" }
        statements += dependents.views.map { "DROP VIEW \(Self.quoted($0.name))" }
        statements.append(createNew)
        statements += copyStatements(from: current, to: new, through: temporary)
        statements.append("DROP TABLE \(Self.quoted(current.name))")
        statements.append("ALTER TABLE \(Self.quoted(temporary)) RENAME TO \(Self.quoted(new.name))")
        let indexes = others.filter { $0.type == "index" && SchemaCatalog.key($0.tableName) == current.object.key }
        let ownTriggers = others.filter { $0.type == "trigger" && SchemaCatalog.key($0.tableName) == current.object.key }
        let triggers = (ownTriggers + dependents.triggers).sorted { $0.order < $1.order }
        statements += indexes.map(\.sql) + dependents.views.map(\.sql) + triggers.map(\.sql)
        let kept = [
            Self.count(indexes.count, "index", "indexes"), Self.count(triggers.count, "trigger", "triggers"),
            Self.count(dependents.views.count, "view", "views"),
        ].compactMap { $0 }
        let reasons = try differences(current, new).joined(separator: ", ")
        let summary = "rebuild \(new.name): \(reasons)" + (kept.isEmpty ? "" : "; keeps \(kept.joined(separator: ", "))")
        try record(.rebuild, new.object.label, summary, statements)
    }

    /// The views that read `table` (directly or through other views) and the triggers of other tables
    /// and views that refer to it or to those views, in `sqlite_schema` order.
    private static func dependents(of table: SchemaCatalog.Table, among others: [SchemaCatalog.Object]) -> (
        views: [SchemaCatalog.Object], triggers: [SchemaCatalog.Object]
    ) {
        let references = Dictionary(uniqueKeysWithValues: others.map { ($0.order, DefinitionText($0.sql).referencedNames) })
        var names: Set<String> = [table.object.key]
        var views: [SchemaCatalog.Object] = []
        var grew = true
        while grew {
            grew = false
            for view in others where view.type == "view" && !names.contains(view.key) {
                guard let read = references[view.order], !read.isDisjoint(with: names) else { continue }
                views.append(view)
                names.insert(view.key)
                grew = true
            }
        }
        let triggers = others.filter { object in
            object.type == "trigger" && SchemaCatalog.key(object.tableName) != table.object.key
                && !(references[object.order] ?? []).isDisjoint(with: names)
        }
        return (views.sorted { $0.order < $1.order }, triggers)
    }

    /// `new_T`, or `new_T_2`, … when a table of that name exists in the schema or the desired one.
    private func temporaryName(for table: String) throws -> String {
        var candidate = "new_\(table)"
        var suffix = 1
        while try work.scalar("SELECT count(*) FROM sqlite_schema WHERE name = ? COLLATE NOCASE", [candidate]) != .integer(0)
            || target.table(candidate) != nil
        {
            suffix += 1
            candidate = "new_\(table)_\(suffix)"
        }
        return candidate
    }

    /// The `INSERT … SELECT` that copies the rows, with explicit column lists (the columns both tables
    /// have; a new column gets its default), the rowid kept when neither side makes it a column; and
    /// the statements that carry the `AUTOINCREMENT` counter over, which `DROP TABLE` would delete.
    private func copyStatements(from current: SchemaCatalog.Table, to new: SchemaCatalog.Table, through temporary: String)
        -> [String]
    {
        let shared = new.columns.filter(\.holdsData).compactMap { column in
            current.column(column.name).map { (target: column.name, source: $0.name) }
        }
        let rowidNames: Set<String> = ["rowid", "oid", "_rowid_"]
        let namesRowid = (current.columns + new.columns).contains { rowidNames.contains($0.key) }
        let keepsRowid = !current.isWithoutRowid && !new.isWithoutRowid && !new.hasRowidAlias && !namesRowid
        let targets = (keepsRowid ? ["rowid"] : []) + shared.map { Self.quoted($0.target) }
        let sources = (keepsRowid ? ["rowid"] : []) + shared.map { Self.quoted($0.source) }
        var statements: [String] = []
        if !targets.isEmpty {
            statements.append(
                "INSERT INTO \(Self.quoted(temporary)) (\(targets.joined(separator: ", "))) "
                    + "SELECT \(sources.joined(separator: ", ")) FROM \(Self.quoted(current.name))")
        }
        if DefinitionText(current.object.sql).hasAutoincrement && DefinitionText(new.object.sql).hasAutoincrement {
            statements.append("DELETE FROM sqlite_sequence WHERE name = \(Self.literal(temporary))")
            statements.append(
                "INSERT INTO sqlite_sequence (name, seq) SELECT \(Self.literal(temporary)), seq FROM sqlite_sequence "
                    + "WHERE name = \(Self.literal(current.name))")
        }
        return statements
    }

    private static func count(_ count: Int, _ one: String, _ many: String) -> String? {
        count == 0 ? nil : "\(count) \(count == 1 ? one : many)"
    }
}
