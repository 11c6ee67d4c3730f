import CellarKit
import Glibc
import TestSupport
import Testing

/// The tutorial's broken `wineries.sql`: no semicolon after the first statement, and a column
/// definition that runs two together.
let brokenWineries = """
    CREATE TABLE wineries (
      id integer primary key,
      name varchar,
      country varchar,
      region varchar,
      volume_cl integer,
      rating integer
    )

    CREATE TABLE wine (
      id integer primary key,
      name varchar,
      rating integer producer_id integer foreign key references wineries(id)
    );

    """

/// Table names of the database at `path`, cellar's own included.
func tableNames(_ path: String) throws -> [String] {
    try Database(path: path).query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map { row in
        if case .text(let name) = row[0] { name } else { "" }
    }
}

// MARK: - Migration files

@Suite struct MigrateEndToEndTests {
    @Test func brokenWineriesFileNamesLineTenAndLeavesNoTable() throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_wineries.sql", brokenWineries)
        let result = try Cellar.run(["migrate"], in: folder.path)
        #expect(result.status == 1)
        #expect(
            result.error == """
                migrations/0001_wineries.sql:10:1: error: near "CREATE": syntax error
                    10 | CREATE TABLE wine (
                       | ^
                cellar: migration 0001 rolled back; the database is still at version 0

                """)
        #expect(result.output.isEmpty)
        #expect(try tableNames(folder.file("cellar.sqlite")).isEmpty)
        let reference = try Shell.run(
            "/usr/bin/sqlite3", [folder.file("reference.db")],
            input: try FileBytes.read(folder.file("migrations/0001_wineries.sql")))
        #expect(reference.error.contains("near \"CREATE\": syntax error"), "sqlite3 agrees on the token: \(reference)")
    }

    @Test func exampleProjectSetsUpOnAFreshCloneAndAgainChangesNothing() throws {
        let repository = String(
            #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))
        let folder = TemporaryDirectory()
        try Shell.run("/bin/cp", ["-R", "\(repository)/migrations", "\(repository)/seeds", folder.path])
        let first = try Cellar.run(["setup"], in: folder.path)
        #expect(first.status == 0, "\(first)")
        #expect(
            first.output.hasPrefix(
                "applied 0001_create_wineries (") && first.output.contains("\napplied 0003_wine_cascade_and_checks ("))
        #expect(first.output.contains("\napplied 3 migrations and 2 seeds in "))
        #expect(first.output.hasSuffix(" ms; now at version 3\n"))
        let bytes = try FileBytes.read(folder.file("cellar.sqlite"))
        let second = try Cellar.run(["setup"], in: folder.path)
        #expect(second.output == "nothing to do; the database is at version 3 and every seed is applied\n")
        #expect(try FileBytes.read(folder.file("cellar.sqlite")) == bytes)
        let database = try Database(path: folder.file("cellar.sqlite"))
        let labels = try database.query("SELECT label FROM wine")
        #expect(labels.count >= 5)
        for row in labels {
            guard case .blob(let png) = row[0] else {
                Issue.record("a label is not a blob")
                continue
            }
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        }
        #expect(try database.scalar("PRAGMA foreign_key_check") == nil)
        let rollback = try Cellar.run(["rollback", "--to", "0"], in: folder.path)
        #expect(rollback.status == 0, "\(rollback)")
        #expect(try tableNames(folder.file("cellar.sqlite")) == ["cellar_migrations", "cellar_seeds"])
    }

    @Test func setupSkipsAMissingDefaultSeedsFolder() throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);")
        let result = try Cellar.run(["setup"], in: folder.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("\napplied 1 migration and 0 seeds in "), "\(result)")
    }

    private static let utf16: [UInt8] = [0xFF, 0xFE] + Array("SELECT 1;".utf8).flatMap { byte -> [UInt8] in [byte, 0] }
    private static let latin1: [UInt8] = Array("SELECT 1;\nSELECT 'caf".utf8) + [0xE9] + Array("';\n".utf8)

    @Test(arguments: [
        (utf16, "0001_a.sql:1:1: error: the file is UTF-16"),
        (latin1, "0001_a.sql:2:12: error: invalid UTF-8 (byte 0xe9)"),
    ])
    func encodingErrorsChangeNothing(bytes: [UInt8], message: String) throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", bytes: bytes)
        let result = try Cellar.run(["migrate"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.error.contains(message), "\(result)")
        #expect(!FileBytes.exists(folder.file("cellar.sqlite")))
    }

    // MARK: - Database problems

    @Test func readOnlyDatabaseIsRefused() throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);")
        try Database(path: folder.file("cellar.sqlite")).execute("CREATE TABLE existing (x)")
        let before = try FileBytes.read(folder.file("cellar.sqlite"))
        let uri = try Cellar.run(["migrate", "-d", "file:cellar.sqlite?mode=ro"], in: folder.path)
        #expect(uri.status == 1)
        #expect(uri.error == "cellar: error: database 'file:cellar.sqlite?mode=ro' is read-only; nothing was changed\n")
        // Tests run as root, for whom file permissions do not stop writes: run cellar as nobody instead.
        chmod(folder.path, 0o755)
        chmod(folder.file("migrations"), 0o755)
        let asNobody = try Shell.run(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", Cellar.executablePath, "migrate"],
            environment: Cellar.cleanEnvironment, directory: folder.path)
        #expect(asNobody.status == 1, "\(asNobody)")
        #expect(asNobody.error == "cellar: error: database 'cellar.sqlite' is read-only; nothing was changed\n")
        #expect(try FileBytes.read(folder.file("cellar.sqlite")) == before)
    }

    @Test func lockedDatabaseGivesUpAfterTheBusyTimeout() throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);")
        let holder = try Database(path: folder.file("cellar.sqlite"))
        try holder.execute("CREATE TABLE held (x)")
        try holder.execute("BEGIN IMMEDIATE")
        let result = try Cellar.run(["migrate", "--busy-timeout", "100"], in: folder.path)
        try holder.execute("ROLLBACK")
        #expect(result.status == 1)
        #expect(
            result.error
                == "cellar: error: database 'cellar.sqlite' is locked by another connection (gave up after 100 ms); nothing was changed; raise --busy-timeout to wait longer\n"
        )
        #expect(try tableNames(folder.file("cellar.sqlite")) == ["held"])
    }

    @Test func databaseThatIsADirectoryOrNotADatabase() throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);")
        TemporaryDirectory.makeFolders(folder.file("dir.sqlite"))
        let directory = try Cellar.run(["migrate", "-d", "dir.sqlite"], in: folder.path)
        #expect(directory.status == 1)
        #expect(directory.error == "cellar: error: 'dir.sqlite' is a directory, not a database file\n")
        try folder.write("text.sqlite", String(repeating: "plain text, not SQLite. ", count: 50))
        let text = try Cellar.run(["migrate", "-d", "text.sqlite"], in: folder.path)
        #expect(text.status == 1)
        #expect(text.error == "cellar: error: cannot open database 'text.sqlite': file is not a database\n")
        #expect(try FileBytes.readText(folder.file("text.sqlite")).hasPrefix("plain text, not SQLite."))
    }

    @Test func statusExitCodeAndJSONEndToEnd() throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);")
        #expect(try Cellar.run(["status", "--exit-code"], in: folder.path).status == 1)
        #expect(try Cellar.run(["create"], in: folder.path).status == 0)
        #expect(try Cellar.run(["status", "--exit-code"], in: folder.path).status == 3)
        #expect(try Cellar.run(["migrate", "-q"], in: folder.path).output.isEmpty)
        let json = try Cellar.run(["status", "--format", "json", "--exit-code"], in: folder.path)
        #expect(json.status == 0)
        #expect(
            json.output.hasPrefix(
                "{\"database\": \"cellar.sqlite\", \"version\": 1, \"migrations\": [{\"version\": 1, \"name\": \"a\", \"state\": \"applied\""
            ))
    }
}
