import CellarKit
import Glibc

/// The dot-commands that describe the database. Every pattern is bound as a parameter.
extension ShellSession {
    /// `.tables [PATTERN]`: tables and views, in columns as sqlite3 lays them out.
    func listTables(pattern: String?) throws {
        let rows = try connection.query(
            """
            SELECT name FROM sqlite_schema
            WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name LIKE ?1
            ORDER BY name
            """, [pattern ?? "%"])
        writeColumns(rows.compactMap { $0.values.first?.textValue })
    }

    /// `.indexes [TABLE]`: index names, of the tables matching the pattern.
    func listIndexes(table: String?) throws {
        let rows = try connection.query(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name LIKE ?1 ORDER BY name", [table ?? "%"])
        writeColumns(rows.compactMap { $0.values.first?.textValue })
    }

    /// `.schema [PATTERN]`: the `CREATE` statements of the objects whose table matches, as sqlite3
    /// writes them: the pattern is a `GLOB` when it holds `*`, `?` or `[`, else a `LIKE` with `\` as
    /// its escape, against the lower-cased table name; a view is followed by a comment naming its
    /// columns (`/* v(a,b) */`); a table whose name is quoted is written `CREATE TABLE IF NOT EXISTS`.
    func showSchema(pattern: String?) throws {
        let isGlob = pattern.map { $0.contains { "*?[".contains($0) } } ?? false
        let match = isGlob ? "lower(tbl_name) GLOB ?1" : "lower(tbl_name) LIKE ?1 ESCAPE '\\'"
        let rows = try connection.query(
            """
            SELECT sql, type, name FROM sqlite_schema
            WHERE sql IS NOT NULL AND (?1 IS NULL OR \(match))
            ORDER BY rowid
            """, [pattern.map(Value.text) ?? .null])
        for row in rows {
            guard var sql = row.values.first?.textValue else { continue }
            if row.values[1].textValue == "view", let name = row.values[2].textValue, let columns = try viewColumns(name) {
                sql += "\n/* " + columns + " */"
            }
            if sql.hasPrefix("CREATE TABLE \"") || sql.hasPrefix("CREATE TABLE '") {
                sql = "CREATE TABLE IF NOT EXISTS " + sql.dropFirst("CREATE TABLE ".count)
            }
            writeOutput(shownKeepingLayout(sql) + ";")
        }
    }

    /// `v(a,b)`: a view's name and its columns, quoted where SQL needs it (sqlite3's comment after a
    /// view); nil when the view has no columns SQLite can name (it does not compile).
    private func viewColumns(_ name: String) throws -> String? {
        guard
            let columns = try? connection.query("SELECT name FROM pragma_table_info(?)", [name])
                .compactMap({ $0.values.first?.textValue }),
            !columns.isEmpty
        else { return nil }
        return IdentifierQuoting.quote(name) + "(" + columns.map(IdentifierQuoting.quote).joined(separator: ",") + ")"
    }

    /// `.databases`: each attached database and its file (a dqlite database: its URL).
    func listDatabases() throws {
        for (name, file) in try connection.attachedDatabases() {
            let access = try name == "main" && connection.isReadOnly ? "r/o" : "r/w"
            writeOutput("\(shown(name)): \(shown(file)) \(access)")
        }
    }

    /// `.migrations`: the state of every migration of the configured folder against this database,
    /// as `cellar status` shows it (without the seeds).
    func showMigrations() throws {
        let folder = configuration.migrationsDirectory
        var files: MigrationFiles?
        if access(folder, F_OK) == 0 {
            files = try MigrationSource.folder(folder).loadReportingProblems()
        } else {
            writeOutput("(no migrations folder '\(shown(folder))': recorded migrations show as missing)")
        }
        let migrator = Migrator(connection: connection, migrations: files?.migrations ?? [], checkpoint: files?.checkpoint)
        let report = StatusReport(
            databasePath: databaseName, version: try migrator.currentVersion(), migrations: try migrator.status(),
            seeds: [], problems: files?.problems ?? [])
        for line in report.text().split(separator: "\n") {
            writeOutput(shown(String(line)))
        }
        if let problems = files?.problems, !problems.isEmpty {
            throw DotCommandError(
                "\(problems.count == 1 ? "a migration file" : "\(problems.count) migration files") cannot be used "
                    + "(marked [error] above): \(problems.map(\.path).joined(separator: ", "))")
        }
    }

    private func writeColumns(_ names: [String]) {
        guard !names.isEmpty else { return }
        let cells = names.map(shown)
        let width = cells.map(\.count).max() ?? 0
        let columns = max(1, 80 / (width + 2))
        let rowCount = (cells.count + columns - 1) / columns
        for row in 0..<rowCount {
            var line = ""
            for column in 0..<columns {
                let index = column * rowCount + row
                guard index < cells.count else { break }
                let cell = cells[index]
                line += column == 0 ? cell : "  " + cell
                if column < columns - 1, (column + 1) * rowCount + row < cells.count {
                    line += String(repeating: " ", count: width - cell.count)
                }
            }
            writeOutput(line)
        }
    }
}

extension Value {
    /// The text of a text value (nil for other storage classes).
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }
}
