@testable import CellarKit

/// What a database held before a schema change, for checking with SQLite afterwards that nothing was
/// lost: every table's columns and rows, and the `AUTOINCREMENT` counters.
struct DataSnapshot: Equatable {
    struct Table: Equatable {
        let columns: [(name: String, type: String)]
        let rows: [[String]]

        static func == (lhs: Table, rhs: Table) -> Bool {
            lhs.columns.map { "\($0.name) \($0.type)" } == rhs.columns.map { "\($0.name) \($0.type)" } && lhs.rows == rhs.rows
        }
    }

    let tables: [String: Table]
    let sequences: [String: Int64]
    let schema: String

    init(_ database: Database) throws {
        var tables: [String: Table] = [:]
        let names = try database.query(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'cellar\\_%' ESCAPE '\\'"
        ).map { $0[0].ledgerText }
        for name in names {
            let columns = try database.query("SELECT name, upper(type) FROM pragma_table_info(?)", [name]).map {
                (name: $0[0].ledgerText.lowercased(), type: $0[1].ledgerText)
            }
            tables[name.lowercased()] = Table(
                columns: columns, rows: try Self.rows(of: name, columns: columns.map(\.name), in: database))
        }
        self.tables = tables
        let hasSequence = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_sequence'") == .integer(1)
        var sequences: [String: Int64] = [:]
        if hasSequence {
            for row in try database.query("SELECT name, seq FROM sqlite_sequence") {
                if case .integer(let seq) = row[1] { sequences[row[0].ledgerText.lowercased()] = seq }
            }
        }
        self.sequences = sequences
        schema = try database.schemaSQL()
    }

    /// The rows of `table` as the quoted values of `columns`, sorted.
    static func rows(of table: String, columns: [String], in database: Database) throws -> [[String]] {
        guard !columns.isEmpty else { return [] }
        let list = columns.map { "quote(\(PlanBuilder.quoted($0)))" }.joined(separator: ", ")
        return try database.query("SELECT \(list) FROM \(PlanBuilder.quoted(table))").map { $0.values.map(\.ledgerText) }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
    }
}

/// The checks a schema change must pass, asked of SQLite itself.
enum SchemaChangeChecks {
    /// Everything wrong with `database` after `change` was applied to it: the schema differs from the
    /// desired one, a table lost rows or values, a counter went back, an index, view or trigger is
    /// missing or broken, a foreign key dangles.
    static func problems(
        in database: Database, before: DataSnapshot, desired: Database, change: SchemaChangeCase
    ) throws -> [String] {
        var problems = try Migrator.differences(live: SchemaObject.all(in: database), expected: SchemaObject.all(in: desired))
            .map { "schema: \($0)" }
        let integrity = try database.query("PRAGMA integrity_check").map { $0[0].ledgerText }
        if integrity != ["ok"] { problems.append("integrity_check: \(integrity.joined(separator: "; "))") }
        let violations = try database.query("PRAGMA foreign_key_check")
        if !violations.isEmpty { problems.append("foreign_key_check: \(violations.count) violations") }
        let after = try DataSnapshot(database)
        let tableRenames = Dictionary(
            uniqueKeysWithValues: change.renames.compactMap(SchemaRename.init(parsing:)).filter { $0.column == nil }.map {
                ($0.table.lowercased(), $0.newName.lowercased())
            })
        for (name, table) in before.tables {
            let newName = tableRenames[name] ?? name
            guard let kept = after.tables[newName] else {
                if !change.allowsDrop { problems.append("table \(name) is gone") }
                continue
            }
            problems += rowProblems(table: newName, before: table, after: kept, change: change, in: database)
        }
        for (name, seq) in before.sequences {
            let newName = tableRenames[name] ?? name
            guard after.tables[newName] != nil else { continue }
            if (after.sequences[newName] ?? 0) < seq {
                problems.append("sqlite_sequence of \(newName): \(seq) → \(after.sequences[newName] ?? 0)")
            }
        }
        for view in try desired.query("SELECT name FROM sqlite_schema WHERE type = 'view'").map({ $0[0].ledgerText }) {
            do {
                _ = try database.query("SELECT count(*) FROM \(PlanBuilder.quoted(view))")
            } catch {
                problems.append("view \(view): \(error)")
            }
        }
        if let probe = change.probe {
            do {
                let value = try database.query(probe).last?.values.first
                if value != .integer(1) { problems.append("probe returned \(value.map { "\($0)" } ?? "no row"): \(probe)") }
            } catch {
                problems.append("probe failed: \(error): \(probe)")
            }
        }
        return problems
    }

    /// Rows lost, or values changed in a column whose type stayed, in one table.
    private static func rowProblems(
        table: String, before: DataSnapshot.Table, after: DataSnapshot.Table, change: SchemaChangeCase, in database: Database
    ) -> [String] {
        if before.rows.count != after.rows.count { return ["table \(table): \(before.rows.count) → \(after.rows.count) rows"] }
        let columnRenames = Dictionary(
            uniqueKeysWithValues: change.renames.compactMap(SchemaRename.init(parsing:)).compactMap { rename in
                rename.column.map { ($0.lowercased(), rename.newName.lowercased()) }
            })
        var beforeIndexes: [Int] = []
        var afterNames: [String] = []
        for (index, column) in before.columns.enumerated() {
            let newName = columnRenames[column.name] ?? column.name
            guard let match = after.columns.first(where: { $0.name == newName }), match.type == column.type else { continue }
            beforeIndexes.append(index)
            afterNames.append(newName)
        }
        let expected = before.rows.map { row in beforeIndexes.map { row[$0] } }.sorted { $0.lexicographicallyPrecedes($1) }
        let found = (try? DataSnapshot.rows(of: table, columns: afterNames, in: database)) ?? []
        return expected == found ? [] : ["table \(table): values of \(afterNames.joined(separator: ", ")) changed"]
    }
}
