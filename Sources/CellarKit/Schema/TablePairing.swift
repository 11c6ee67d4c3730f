/// Which table of the FROM schema becomes which of the TO schema: by name, or by a rename asked for.
/// Renames are never guessed; a vanished table or column is dropped, and only when allowed.
struct TablePairing {
    let start: SchemaCatalog
    let target: SchemaCatalog
    /// Table renames, FROM name → TO name, as asked.
    let tableRenames: [(from: SchemaCatalog.Table, to: SchemaCatalog.Table)]
    /// Column renames, with the table as the FROM schema names it.
    let columnRenames: [(table: SchemaCatalog.Table, column: SchemaCatalog.Column, newName: String)]

    init(start: SchemaCatalog, target: SchemaCatalog, renames: [SchemaRename]) throws {
        self.start = start
        self.target = target
        var tables: [(from: SchemaCatalog.Table, to: SchemaCatalog.Table)] = []
        var columns: [(table: SchemaCatalog.Table, column: SchemaCatalog.Column, newName: String)] = []
        for rename in renames where rename.column == nil {
            guard let old = start.table(rename.table) else {
                throw SchemaPlanError.badRename(rename, reason: "the schema it starts from has no table \(rename.table)")
            }
            guard let new = target.table(rename.newName) else {
                throw SchemaPlanError.badRename(rename, reason: "the desired schema has no table \(rename.newName)")
            }
            guard start.table(rename.newName) == nil else {
                throw SchemaPlanError.badRename(rename, reason: "the schema it starts from has a table \(rename.newName) already")
            }
            guard !tables.contains(where: { $0.from.object.order == old.object.order || $0.to.object.order == new.object.order })
            else { throw SchemaPlanError.badRename(rename, reason: "a table is renamed twice") }
            tables.append((old, new))
        }
        for rename in renames {
            guard let columnName = rename.column else { continue }
            let table =
                start.table(rename.table)
                ?? tables.first { SchemaCatalog.key($0.to.name) == SchemaCatalog.key(rename.table) }?.from
            guard let table else {
                throw SchemaPlanError.badRename(rename, reason: "the schema it starts from has no table \(rename.table)")
            }
            guard let column = table.column(columnName) else {
                throw SchemaPlanError.badRename(rename, reason: "table \(table.name) has no column \(columnName)")
            }
            let newTable = tables.first { $0.from.object.order == table.object.order }?.to ?? target.table(table.name)
            guard let newTable, newTable.column(rename.newName) != nil else {
                throw SchemaPlanError.badRename(
                    rename, reason: "the desired table \(table.name) has no column \(rename.newName)")
            }
            guard table.column(rename.newName) == nil else {
                throw SchemaPlanError.badRename(rename, reason: "table \(table.name) has a column \(rename.newName) already")
            }
            columns.append((table, column, rename.newName))
        }
        tableRenames = tables
        columnRenames = columns
    }

    /// The TO table that `table` of the FROM schema becomes, if any.
    func counterpart(of table: SchemaCatalog.Table) -> SchemaCatalog.Table? {
        if let renamed = tableRenames.first(where: { $0.from.object.order == table.object.order }) { return renamed.to }
        guard !tableRenames.contains(where: { SchemaCatalog.key($0.to.name) == SchemaCatalog.key(table.name) }) else {
            return nil
        }
        return target.table(table.name)
    }

    /// The name `column` of FROM's `table` has after the renames.
    func newName(of column: SchemaCatalog.Column, in table: SchemaCatalog.Table) -> String {
        columnRenames.first { $0.table.object.order == table.object.order && $0.column.key == column.key }?.newName
            ?? column.name
    }

    /// FROM tables that no TO table continues.
    var vanishedTables: [SchemaCatalog.Table] { start.orderedTables.filter { counterpart(of: $0) == nil } }

    /// TO tables that no FROM table continues.
    var newTables: [SchemaCatalog.Table] {
        let continued = Set(start.orderedTables.compactMap { counterpart(of: $0).map { SchemaCatalog.key($0.name) } })
        return target.orderedTables.filter { !continued.contains(SchemaCatalog.key($0.name)) }
    }

    /// Each FROM table with its TO counterpart.
    var pairs: [(from: SchemaCatalog.Table, to: SchemaCatalog.Table)] {
        start.orderedTables.compactMap { table in counterpart(of: table).map { (table, $0) } }
    }

    /// Columns holding data in FROM's `table` that its counterpart `new` lacks, after renames.
    func vanishedColumns(of table: SchemaCatalog.Table, in new: SchemaCatalog.Table) -> [SchemaCatalog.Column] {
        table.columns.filter { $0.holdsData && new.column(newName(of: $0, in: table)) == nil }
    }

    /// Columns of TO's `new` that FROM's `table` has no column for, after renames.
    func newColumns(of new: SchemaCatalog.Table, from table: SchemaCatalog.Table) -> [SchemaCatalog.Column] {
        let kept = Set(table.columns.map { SchemaCatalog.key(newName(of: $0, in: table)) })
        return new.columns.filter { !kept.contains($0.key) }
    }

    /// Refuses a change to a virtual table that would be an `ALTER TABLE` or a rebuild for an ordinary
    /// one (see ``SchemaPlanError/virtualTable(_:change:)``): a table that becomes virtual or stops
    /// being virtual, a column renamed, and columns that come or go. Before the drop check, so that a
    /// vanished column of a virtual table is not offered a `--rename` SQLite refuses. Renaming the
    /// table itself is `ALTER TABLE … RENAME`, which virtual tables take.
    func checkVirtualTables() throws {
        for (table, new) in pairs where table.isVirtual || new.isVirtual {
            if table.isVirtual != new.isVirtual {
                throw SchemaPlanError.virtualTable(
                    new.name,
                    change: table.isVirtual ? "it is a virtual table that becomes an ordinary one" : "it becomes a virtual table")
            }
            if let renamed = columnRenames.first(where: { $0.table.object.order == table.object.order }) {
                throw SchemaPlanError.virtualTable(
                    new.name, change: "it is a virtual table, whose columns SQLite cannot rename (\(renamed.column.name))")
            }
            // Hidden columns (FTS5's column named after the table, `rank`) are the module's.
            let gone = table.columns.filter { $0.hidden != 1 && new.column($0.name) == nil }.map(\.name)
            let added = new.columns.filter { $0.hidden != 1 && table.column($0.name) == nil }.map(\.name)
            if !gone.isEmpty || !added.isEmpty {
                let parts = gone.map { "\($0) goes" } + added.map { "\($0) comes" }
                throw SchemaPlanError.virtualTable(
                    new.name, change: "it is a virtual table whose columns change (\(parts.joined(separator: ", ")))")
            }
        }
    }

    /// Refuses, unless `allowed`, a plan that drops a table or a column holding data, naming each, and
    /// the renames that would keep a vanished object's data where one of the same shape appears.
    func checkDrops(allowed: Bool) throws {
        guard !allowed else { return }
        let tables = vanishedTables
        var columns: [String] = []
        var suggestions: [SchemaRename] = []
        for (table, new) in pairs {
            let gone = vanishedColumns(of: table, in: new)
            columns += gone.map { "\(table.name).\($0.name)" }
            let appearing = newColumns(of: new, from: table)
            for column in gone {
                for candidate in appearing
                where candidate.holdsData && candidate.declaredType.uppercased() == column.declaredType.uppercased() {
                    suggestions.append(SchemaRename(table: table.name, column: column.name, newName: candidate.name))
                }
            }
        }
        for table in tables {
            for candidate in newTables where Self.shape(of: candidate) == Self.shape(of: table) {
                suggestions.append(SchemaRename(table: table.name, newName: candidate.name))
            }
        }
        guard tables.isEmpty && columns.isEmpty else {
            throw SchemaPlanError.dropRefused(tables: tables.map(\.name), columns: columns, renames: suggestions)
        }
    }

    /// A table's columns by declared type and key position, names left out: what a renamed table keeps.
    private static func shape(of table: SchemaCatalog.Table) -> [String] {
        table.columns.filter(\.holdsData).map { "\($0.declaredType.uppercased()) \($0.primaryKeyPosition)" }
    }

    /// Refuses a new `NOT NULL` column without a default in a table that already has rows to keep.
    func checkNewColumns() throws {
        for (table, new) in pairs {
            for column in newColumns(of: new, from: table) where column.holdsData && column.isNotNull {
                let hasDefault = column.defaultText.map { $0.uppercased() != "NULL" } ?? false
                let isRowid = new.hasRowidAlias && column.primaryKeyPosition > 0
                if !hasDefault && !isRowid { throw SchemaPlanError.notNullWithoutDefault(table: new.name, column: column.name) }
            }
        }
    }
}
