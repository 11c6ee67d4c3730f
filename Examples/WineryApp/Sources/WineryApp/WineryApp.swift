import CellarKit
import Foundation

/// Migrates the winery database at launch, as an app would, then prints its wineries.
/// Usage: `WineryApp MIGRATIONS_FOLDER DATABASE_FILE`.
@main
struct WineryApp {
    static func main() async {
        let arguments = CommandLine.arguments
        do {
            guard arguments.count == 3 else { throw AppError("usage: WineryApp MIGRATIONS_FOLDER DATABASE_FILE") }
            try await run(migrations: arguments[1], database: arguments[2])
        } catch {
            FileHandle.standardError.write(Data("WineryApp: \(error)\n".utf8))
            exit(1)
        }
    }

    @MainActor
    static func run(migrations folder: String, database path: String) async throws {
        // The SQL files an app bundles, held in memory (read from the repository's migrations/ here).
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sql") }.map {
            MigrationSource.File(name: $0, contents: [UInt8](try Data(contentsOf: URL(filePath: "\(folder)/\($0)"))))
        }
        // Everything the app prints goes through one buffered sink on standard output, in order.
        let output = FileDescriptorSink.standardOutput()
        defer { try? output.flush() }
        // Migrate off the main actor; each event crosses to the progress log on the main actor.
        let progress = ProgressLog(output: output)
        let (events, continuation) = AsyncStream.makeStream(of: MigrationEvent.self)
        let migration = Task.detached {
            defer { continuation.finish() }
            try migrate(path, files: files) { continuation.yield($0) }
        }
        for await event in events { try progress.record(event) }
        try await migration.value
        try showWineries(path, on: output)
    }

    /// Migrates with the app's own authorizer installed, and checks that it is still there afterwards.
    static func migrate(_ path: String, files: [MigrationSource.File], observer: @escaping (MigrationEvent) -> Void) throws {
        let db = try Database(path: path)
        try db.setAuthorizer { $0.action == .attach ? .deny : .allow }  // the app's rule: no ATTACH
        let migrator = try Migrator(database: db, source: .files(files))
        migrator.observer = observer
        try migrator.migrate()
        let attach = Result { try db.execute("ATTACH ':memory:' AS scratch") }
        guard case .failure(let error as SQLiteError) = attach, error.resultCode == .auth else {
            throw AppError("the migration removed the app's authorizer")
        }
    }

    /// Adds wineries with bound values, reads them back as typed rows, and prints them as a table with
    /// CellarKit's renderer.
    @MainActor
    static func showWineries(_ path: String, on output: FileDescriptorSink) throws {
        let db = try Database(path: path)
        try db.execute(
            "INSERT OR IGNORE INTO wineries (name, country, region, founded) VALUES (?, ?, ?, ?), (?, ?, ?, ?)",
            ["Ridge", "USA", "Santa Cruz Mountains", 1962, "Château Musar", "Lebanon", Value.null, 1930])
        for row in try db.query("SELECT name, region, founded FROM wineries ORDER BY founded") {
            let name: String = try row.decode("name")
            let region = try row.decode(String?.self, "region")
            let founded = try row.decode(Int.self, "founded")
            try output.write("\(name) (\(region ?? "no region")), founded \(founded)\n")
        }
        let renderer = ResultRenderer(sink: output, options: RenderOptions(mode: .box))
        _ = try renderer.render(try db.prepare("SELECT name, country, region FROM wineries ORDER BY name"))
        try renderer.flush()
    }
}

/// A failure of the app itself, with its message.
struct AppError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
