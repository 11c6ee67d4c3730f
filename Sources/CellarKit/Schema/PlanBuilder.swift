/// Works a plan out on `work`, an empty copy of the FROM schema: each statement is run there as it is
/// written, so every later decision sees the schema as the plan leaves it so far.
///
/// The order of the steps is one SQLite accepts: renames first (SQLite rewrites the references to
/// the renamed object), then the indexes, views and triggers that change or go are dropped, new
/// tables created, changed tables altered or rebuilt, vanished tables dropped, and the indexes, views
/// and triggers the desired schema has and `work` lacks created, in the order the desired schema's
/// database accepted them.
struct PlanBuilder {
    let work: any SQLConnection
    /// The desired schema's connection, for what its catalog does not hold (foreign keys).
    let desired: any SQLConnection
    let target: SchemaCatalog
    let pairing: TablePairing
    private(set) var changes: [SchemaPlan.Change] = []
    /// A one-row table for asking SQLite whether `ADD COLUMN` accepts a definition on a table with rows.
    private var probe: (any SQLConnection)?

    init(work: any SQLConnection, desired: any SQLConnection, target: SchemaCatalog, pairing: TablePairing) {
        self.work = work
        self.desired = desired
        self.target = target
        self.pairing = pairing
    }

    mutating func build() throws {
        try renameTables()
        try renameColumns()
        try dropChangedObjects()
        for table in pairing.newTables {
            try record(.create, table.object.label, "create table \(table.name)", [table.object.sql])
        }
        try changeTables()
        for table in pairing.vanishedTables {
            try record(
                .drop, table.object.label, "drop table \(table.name) and its rows: not in the desired schema",
                ["DROP TABLE \(Self.quoted(table.name))"])
        }
        try createObjects()
    }

    // MARK: - Steps

    private mutating func renameTables() throws {
        for (old, new) in pairing.tableRenames {
            try record(
                .renameTable, old.object.label, "rename table \(old.name) to \(new.name)",
                ["ALTER TABLE \(Self.quoted(old.name)) RENAME TO \(Self.quoted(new.name))"])
        }
    }

    private mutating func renameColumns() throws {
        for (table, column, newName) in pairing.columnRenames {
            let current = pairing.counterpart(of: table)?.name ?? table.name
            try record(
                .renameColumn, table.object.label, "rename column \(table.name).\(column.name) to \(newName)",
                ["ALTER TABLE \(Self.quoted(current)) RENAME COLUMN \(Self.quoted(column.name)) TO \(Self.quoted(newName))"])
        }
    }

    /// Drops the indexes, views and triggers that the desired schema lacks or defines differently
    /// (after the renames, which rewrote the references); those of a vanished table go with it.
    private mutating func dropChangedObjects() throws {
        let vanished = Set(pairing.vanishedTables.map { SchemaCatalog.key($0.name) })
        let rank = ["trigger": 0, "view": 1, "index": 2]
        let objects = try SchemaCatalog.read(from: work, tables: []).orderedOthers.sorted {
            (rank[$0.type] ?? 3, $0.order) < (rank[$1.type] ?? 3, $1.order)
        }
        for object in objects {
            if object.type != "view" && vanished.contains(SchemaCatalog.key(object.tableName)) { continue }
            let wanted = target.others[SchemaCatalog.key(type: object.type, name: object.name)]
            guard wanted?.normalizedSQL != object.normalizedSQL else { continue }
            let why = wanted == nil ? "not in the desired schema" : "its definition changed; created again below"
            try record(
                wanted == nil ? .drop : .redefine, object.label, "drop \(object.label): \(why)",
                ["DROP \(object.type.uppercased()) \(Self.quoted(object.name))"])
        }
    }

    private mutating func changeTables() throws {
        for (_, new) in pairing.pairs {
            guard let current = try SchemaCatalog.table(named: new.name, in: work),
                current.object.normalizedSQL != new.object.normalizedSQL
            else { continue }
            if current.isVirtual || new.isVirtual {
                throw SchemaPlanError.virtualTable(new.name, change: "it is a virtual table whose definition changes")
            }
            if try alter(current, into: new) { continue }
            try rebuild(current, into: new)
        }
    }

    /// Creates what the desired schema has and `work` lacks: indexes, then views, then triggers (which
    /// may be on views), each in the order the desired schema's database accepted them.
    private mutating func createObjects() throws {
        let present = try SchemaCatalog.read(from: work, tables: []).others
        for type in ["index", "view", "trigger"] {
            for object in target.orderedOthers where object.type == type {
                let key = SchemaCatalog.key(type: object.type, name: object.name)
                guard present[key]?.normalizedSQL != object.normalizedSQL else { continue }
                try record(.create, object.label, "create \(object.label)", [object.sql])
            }
        }
    }

    // MARK: - ALTER TABLE

    /// Changes `current` into `new` with `ALTER TABLE … DROP COLUMN` and `ADD COLUMN` when that is all
    /// it takes: SQLite accepts each statement and the table's definition afterwards is the desired one.
    /// Tried inside a savepoint on `work`, undone when it does not reach `new`.
    private mutating func alter(_ current: SchemaCatalog.Table, into new: SchemaCatalog.Table) throws -> Bool {
        let gone = current.columns.filter { new.column($0.name) == nil }
        let added = new.columns.filter { current.column($0.name) == nil }
        guard !gone.isEmpty || !added.isEmpty else { return false }
        let remaining = current.columns.filter { new.column($0.name) != nil }.map(\.key)
        guard new.columns.prefix(remaining.count).map(\.key) == remaining else { return false }
        let definitions = DefinitionText(new.object.sql).columnDefinitions
        let table = Self.quoted(current.name)
        var statements = gone.map { "ALTER TABLE \(table) DROP COLUMN \(Self.quoted($0.name))" }
        for column in added {
            guard let definition = definitions.first(where: { SchemaCatalog.key($0.name) == column.key }),
                try isAddable(column, definition.text)
            else { return false }
            statements.append("ALTER TABLE \(table) ADD COLUMN \(definition.text)")
        }
        try work.execute("SAVEPOINT cellar_plan_alter")
        defer { try? work.execute("RELEASE cellar_plan_alter") }
        do {
            for statement in statements { try work.execute(statement) }
            let after = try SchemaCatalog.table(named: current.name, in: work)
            if after?.object.normalizedSQL == new.object.normalizedSQL {
                let parts = added.map { "add column \($0.name)" } + gone.map { "drop column \($0.name)" }
                changes.append(
                    SchemaPlan.Change(
                        kind: .alter, object: new.object.label,
                        summary: Self.comment("alter table \(new.name): \(parts.joined(separator: ", "))"), statements: statements
                    ))
                return true
            }
        } catch is SQLiteError {}
        try work.execute("ROLLBACK TO cellar_plan_alter")
        return false
    }

    /// Whether `ADD COLUMN` takes `column` on a table that has rows (SQLite checks a NOT NULL column,
    /// a non-constant default and a CHECK only when the table has rows, so an empty copy cannot tell):
    /// not a key, not a stored generated column, NOT NULL only with a non-NULL default, and accepted
    /// on a one-row probe table (<https://sqlite.org/lang_altertable.html#altertabaddcol>).
    private mutating func isAddable(_ column: SchemaCatalog.Column, _ definition: String) throws -> Bool {
        guard column.primaryKeyPosition == 0, column.hidden != 3 else { return false }
        if column.isNotNull, column.defaultText.map({ $0.uppercased() == "NULL" }) ?? true { return false }
        let probe = try probeTable()
        try probe.execute("SAVEPOINT cellar_probe")
        defer {
            try? probe.execute("ROLLBACK TO cellar_probe")
            try? probe.execute("RELEASE cellar_probe")
        }
        do {
            try probe.execute("ALTER TABLE cellar_probe ADD COLUMN \(definition)")
            return true
        } catch is SQLiteError {
            return false
        }
    }

    private mutating func probeTable() throws -> any SQLConnection {
        if let probe { return probe }
        let made = try work.rehearsalDatabase(copyingContents: false)
        try made.execute("CREATE TABLE cellar_probe(cellar_probe_value); INSERT INTO cellar_probe VALUES (1)")
        probe = made
        return made
    }

    // MARK: - Recording

    /// Runs `statements` on `work` and records them as one change.
    mutating func record(_ kind: SchemaPlan.Change.Kind, _ object: String, _ summary: String, _ statements: [String]) throws {
        for statement in statements {
            do {
                try work.execute(statement)
            } catch let error as SQLiteError {
                throw SchemaPlanError.stepFailed(statement: statement, message: error.message)
            }
        }
        changes.append(SchemaPlan.Change(kind: kind, object: object, summary: Self.comment(summary), statements: statements))
    }

    /// `name` as an SQL identifier, `"` doubled.
    static func quoted(_ name: String) -> String { "\"" + name.replacing("\"", with: "\"\"") + "\"" }

    /// `text` as an SQL string literal, `'` doubled.
    static func literal(_ text: String) -> String { "'" + text.replacing("'", with: "''") + "'" }

    /// `text` made safe for one comment line: control characters (a line break in a name) escaped.
    static func comment(_ text: String) -> String { ControlCharacterEscaping.escape(text) }
}
