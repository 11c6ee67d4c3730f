import CellarCLI
import CellarKit
import TestSupport

/// Runs the CLI in-process against buffers, with absolute paths into one temporary folder.
final class CLIProject {
    let folder = TemporaryDirectory()
    var databasePath: String { folder.file("test.db") }
    var migrationsPath: String { folder.file("migrations") }

    init(_ migrations: [String: String] = [:]) throws {
        for (name, text) in migrations { try folder.write("migrations/\(name)", text) }
    }

    func run(
        _ arguments: [String], environment: [String: String] = [:], isErrorTerminal: Bool = false, input: String = ""
    ) -> InProcessRun {
        InProcessRun(
            arguments + ["-d", databasePath, "-m", migrationsPath, "--seeds", folder.file("seeds")], input: input,
            environment: environment, isErrorTerminal: isErrorTerminal)
    }

    func scalar(_ sql: String) throws -> Value? {
        try Database(path: databasePath, options: .init(mode: .readOnly)).scalar(sql)
    }

    func tables() throws -> [String] {
        try Database(path: databasePath, options: .init(mode: .readOnly)).query(
            "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
        ).map { row in if case .text(let name) = row[0] { name } else { "" } }
    }
}

// MARK: - Migrations the suites share

let createWineries =
    "-- migrate:up\nCREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n-- migrate:down\nDROP TABLE wineries;\n"
let createWine = """
    CREATE TABLE wine (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        rating integer producer_id integer foreign key references wineries(id)
    );

    """
