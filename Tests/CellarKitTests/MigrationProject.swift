import CellarKit
import TestSupport

/// A migrations folder and a database file in a fresh temporary directory.
final class MigrationProject {
    let folder = TemporaryDirectory()
    var migrationsPath: String { folder.file("migrations") }
    var databasePath: String { folder.file("test.db") }

    init(_ files: [String: String]) throws {
        for (name, text) in files { try folder.write("migrations/\(name)", text) }
    }

    func open() throws -> Database { try Database(path: databasePath) }

    func migrator(_ database: Database) throws -> Migrator {
        try Migrator(database: database, source: .folder(migrationsPath))
    }

    func tables(_ database: Database) throws -> [String] {
        try database.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map { row in
            if case .text(let name) = row[0] { name } else { "" }
        }
    }

    func versions(_ database: Database) throws -> [Int64] {
        try Migrator(database: database, migrations: []).applied().map(\.version)
    }
}

// MARK: - Migrations the suites share

let wineries =
    "-- migrate:up\nCREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n-- migrate:down\nDROP TABLE wineries;\n"
let wine = """
    -- migrate:up
    CREATE TABLE wine (
      id INTEGER PRIMARY KEY,
      name TEXT,
      winery_id INTEGER REFERENCES wineries (id)
    );
    -- migrate:down
    DROP TABLE wine;

    """
