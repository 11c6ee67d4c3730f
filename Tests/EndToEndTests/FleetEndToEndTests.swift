import CellarKit
import Glibc
import TestSupport
import Testing

/// Fleets: several databases, patterns and lists, run with the real binary.
@Suite struct FleetEndToEndTests {
    static let migrations = [
        "0001_a.sql": "CREATE TABLE a (x);\n",
        "0002_b.sql": "CREATE TABLE b (y);\nINSERT INTO b VALUES (1);\n",
        "0003_c.sql": "CREATE INDEX b_y ON b (y);\n",
    ]

    static func project(databases names: [String]) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        for (name, text) in migrations { try folder.write("migrations/\(name)", text) }
        for name in names {
            TemporaryDirectory.makeFolders(folder.file(String(name.split(separator: "/").dropLast().joined(separator: "/"))))
            try Database(path: folder.file(name)).execute("PRAGMA user_version = 1")
        }
        return folder
    }

    static func version(_ path: String) throws -> Int64? {
        let database = try Database(path: path, options: .init(mode: .readOnly))
        guard try database.scalar("SELECT 1 FROM sqlite_schema WHERE name = 'cellar_migrations'") != nil else { return nil }
        let value = try database.scalar("SELECT max(version) FROM cellar_migrations")
        if case .integer(let version) = value { return version }
        return nil
    }

    /// 150 databases that fail the same way (a pending migration names a table none has), 3 that are
    /// not databases (their paths in the message) and one that fails its own way: each way is shown in
    /// full once, then counted once; the exit status and the summary count every failure.
    @Test func databasesThatFailTheSameWayAreSummedUpOnce() throws {
        let names = (1...150).map { "tenants/t\($0).sqlite" }
        let folder = try Self.project(databases: names + ["tenants/odd.sqlite"])
        try folder.write("migrations/0004_d.sql", "INSERT INTO nope VALUES (1);\n")
        try Database(path: folder.file("tenants/odd.sqlite")).execute("CREATE TABLE a (x)")
        for index in 1...3 { try folder.write("tenants/junk\(index).sqlite", String(repeating: "not a database ", count: 40)) }
        let result = try Cellar.run(["migrate", "-d", "tenants/*.sqlite", "--jobs", "4"], in: folder.path)
        #expect(result.status == 1, "\(result)")
        #expect(result.output.hasSuffix("154 databases: 0 migrated, 0 already current, 154 failed\n"), "\(result.output)")
        let lines = result.error.split(separator: "\n")
        #expect(lines.count < 20, "\(result.error)")
        #expect(lines.filter { $0.contains("0004_d.sql:1:1: error: no such table: nope") }.count == 1, "\(result.error)")
        #expect(lines.contains { $0.hasPrefix("150 failed with: error: no such table: nope (tenants/t") }, "\(result.error)")
        #expect(lines.contains { $0.hasSuffix(" and 147 others; --format json lists each)") }, "\(result.error)")
        #expect(
            lines.contains {
                $0.hasPrefix("3 failed with: error: cannot open database '<database>': file is not a database (tenants/junk")
            }, "\(result.error)")
        #expect(lines.contains("tenants/odd.sqlite: error: table a already exists"), "\(result.error)")
        #expect(!lines.contains { $0.hasPrefix("1 failed with") }, "\(result.error)")
        // JSON still has an object for each database.
        let json = try Cellar.run(["migrate", "-d", "tenants/*.sqlite", "--format", "json"], in: folder.path)
        #expect(json.output.split(separator: "\n").filter { $0.contains("\"result\": \"failed\"") }.count == 154)
    }

    @Test func aBrokenALockedAndAReadOnlyDatabaseFailAloneAndTheSummaryAddsUp() throws {
        let good = (1...5).map { "tenants/good\($0).sqlite" }
        let folder = try Self.project(databases: good + ["tenants/locked.sqlite", "tenants/readonly.sqlite"])
        try folder.write("tenants/broken.sqlite", String(repeating: "not a database ", count: 40))
        // Run as nobody, for whom a 0444 file is read-only (root writes anyway); everything else is open to it.
        for path in ["", "/migrations", "/tenants"] { chmod(folder.path + path, 0o777) }
        for name in good + ["tenants/locked.sqlite", "tenants/broken.sqlite"] { chmod(folder.file(name), 0o666) }
        chmod(folder.file("tenants/readonly.sqlite"), 0o444)
        // The lock is held in this process: no other descriptor of locked.sqlite may be closed here meanwhile.
        let holder = try Database(path: folder.file("tenants/locked.sqlite"))
        try holder.execute("BEGIN IMMEDIATE; PRAGMA user_version = 2;")
        let result = try Shell.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", Cellar.executablePath, "migrate", "-d", "tenants/*.sqlite",
                "--jobs", "3", "--busy-timeout", "200",
            ], environment: Cellar.cleanEnvironment, directory: folder.path)
        try holder.execute("ROLLBACK")
        #expect(result.status == 1, "\(result)")
        for name in good {
            #expect(result.output.contains("\(name): applied 3 migrations; now at version 3\n"))
            #expect(try Self.version(folder.file(name)) == 3)
        }
        #expect(result.output.hasSuffix("8 databases: 5 migrated, 0 already current, 3 failed\n"), "\(result)")
        #expect(
            result.error.contains(
                "tenants/broken.sqlite: error: cannot open database 'tenants/broken.sqlite': file is not a database\n"))
        #expect(
            result.error.contains(
                "tenants/locked.sqlite: error: database 'tenants/locked.sqlite' is locked by another connection "
                    + "(gave up after 200 ms); nothing was changed; raise --busy-timeout to wait longer\n"))
        #expect(
            result.error.contains(
                "tenants/readonly.sqlite: error: database 'tenants/readonly.sqlite' is read-only; nothing was changed\n"))
        #expect(try Self.version(folder.file("tenants/locked.sqlite")) == nil)
        #expect(try Self.version(folder.file("tenants/readonly.sqlite")) == nil)
    }

    @Test func aFailingMigrationIsLocatedBelowItsDatabasesLine() throws {
        let folder = try Self.project(databases: ["d/one.db", "d/two.db", "d/three.db"])
        try Database(path: folder.file("d/two.db")).execute("CREATE TABLE b (clash)")
        let result = try Cellar.run(
            ["migrate", "-d", "d/one.db", "-d", "d/two.db", "-d", "d/three.db", "-j", "1"], in: folder.path)
        #expect(result.status == 1)
        #expect(
            result.output
                == "d/one.db: applied 3 migrations; now at version 3\nd/three.db: applied 3 migrations; now at version 3\n"
                + "3 databases: 2 migrated, 0 already current, 1 failed\n")
        #expect(
            result.error.hasPrefix(
                "d/two.db: error: table b already exists\n    migrations/0002_b.sql:1:14: error: table b already exists\n"
                    + "        1 | CREATE TABLE b (y);\n"), "\(result.error)")
        #expect(try Self.version(folder.file("d/two.db")) == 1, "migration 1 stays applied, 2 rolled back")
    }

    @Test func globsListsAndStatusExitCodes() throws {
        let folder = try Self.project(databases: ["x/a/1.db", "x/a/b/2.db", "x/c/3.db", "x/.hidden/4.db", "x/5.txt"])
        try folder.write("list.txt", "x/c/3.db\n# a comment\n\nx/5.txt\n")
        let migrated = try Cellar.run(["migrate", "-d", "x/**/*.db", "-q"], in: folder.path)
        #expect(migrated.status == 0 && migrated.output.isEmpty, "\(migrated)")
        for name in ["x/a/1.db", "x/a/b/2.db", "x/c/3.db"] { #expect(try Self.version(folder.file(name)) == 3) }
        #expect(try Self.version(folder.file("x/.hidden/4.db")) == nil, "** does not enter hidden folders")
        let status = try Cellar.run(["status", "--databases-from", "list.txt", "--exit-code", "-j", "1"], in: folder.path)
        #expect(status.status == 3)
        #expect(
            status.output
                == "x/c/3.db: already current at version 3\nx/5.txt: at version 0; 3 to do\n"
                + "2 databases: 1 up to date, 1 with work to do, 0 failed\n")
        let fromInput = try Cellar.run(
            ["verify", "--databases-from", "-", "--format", "json"], in: folder.path, input: "x/a/1.db\n")
        #expect(fromInput.status == 0)
        #expect(
            fromInput.output
                == "{\"database\": \"x/a/1.db\", \"result\": \"verified\", \"version\": 3, \"applied_migrations\": 0, "
                + "\"applied_seeds\": 0, \"backup\": null, \"error\": null}\n")
        #expect(fromInput.error == "1 database: 1 verified, 0 failed\n")
        // A pattern that matches nothing is most likely mistyped: an error, not a fleet of none that passes.
        let none = try Cellar.run(["verify", "-d", "y/*.db", "-d", "x/**/*.db"], in: folder.path)
        #expect(none.status == 1 && none.error == "cellar: error: no database matches 'y/*.db'; nothing was done\n", "\(none)")
        // A database two patterns name is handled once.
        let twice = try Cellar.run(
            ["status", "-d", "x/a/*.db", "-d", "x/**/1.db", "-d", "x/c/3.db", "-d", "x/c/3.db"], in: folder.path)
        #expect(
            twice.status == 0 && twice.output.hasSuffix("2 databases: 2 up to date, 0 with work to do, 0 failed\n"), "\(twice)")
    }

    @Test func failFastStartsNoOtherDatabaseAndFleetBackupsAreOnePerDatabase() throws {
        let folder = try Self.project(databases: ["f/1.db", "f/3.db"])
        try folder.write("f/2.db", String(repeating: "garbage ", count: 100))
        let stopped = try Cellar.run(["migrate", "-d", "f/*.db", "--fail-fast", "-j", "1", "--backup"], in: folder.path)
        #expect(stopped.status == 1)
        #expect(stopped.output.hasPrefix("f/1.db: applied 3 migrations; now at version 3; backup f/1.db."))
        #expect(
            stopped.output.hasSuffix(
                "2 databases: 1 migrated, 0 already current, 1 failed; stopped at the first failure (--fail-fast): no other database was started\n"
            ))
        #expect(try Self.version(folder.file("f/3.db")) == nil)
        let backups = try DirectoryListing.fileNames(in: folder.file("f")).filter { $0.hasSuffix(".v0.bak") }
        #expect(backups.count == 1 && backups[0].hasPrefix("1.db."))
    }

    @Test func otherCommandsRefuseAFleet() throws {
        let folder = try Self.project(databases: ["a.db", "b.db"])
        let result = try Cellar.run(["dump", "-d", "a.db", "-d", "b.db"], in: folder.path)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("cellar: error: 'dump' works on one database"))
    }

    /// The checks made before anything runs are made once for all the databases of a fleet that do not
    /// exist yet (issue 26): their answer must still be each database's own. A target no file has fails
    /// every absent database without creating any (the check must come before the file is created), and
    /// a database that exists is checked on its own (here: out of order) while the absent ones migrate.
    @Test func absentDatabasesShareTheirChecksAndNoneIsCreatedWhenTheyFail() throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);\n")
        try folder.write("migrations/0003_c.sql", "CREATE TABLE c (z);\n")
        TemporaryDirectory.makeFolders(folder.file("tenants"))
        let old = try Cellar.run(["migrate", "-q", "-d", "tenants/old.sqlite"], in: folder.path)
        #expect(old.status == 0, "\(old)")
        try folder.write("migrations/0002_b.sql", "CREATE TABLE b (y);\n")
        let absent = (1...5).map { "tenants/new\($0).sqlite" }
        try folder.write(
            "list.txt", (absent.prefix(2) + ["tenants/old.sqlite"] + absent.dropFirst(2)).joined(separator: "\n") + "\n")

        let target = try Cellar.run(["migrate", "--databases-from", "list.txt", "--to", "9", "--jobs", "2"], in: folder.path)
        #expect(target.status == 1, "\(target)")
        #expect(target.output.hasSuffix("6 databases: 0 migrated, 0 already current, 6 failed\n"), "\(target.output)")
        #expect(target.error.contains("6 failed with: error: no migration file has version 9"), "\(target.error)")
        for name in absent { #expect(!FileBytes.exists(folder.file(name)), "\(name) was created") }

        let run = try Cellar.run(["migrate", "--databases-from", "list.txt", "--jobs", "2"], in: folder.path)
        #expect(run.status == 1, "\(run)")
        #expect(run.output.hasSuffix("6 databases: 5 migrated, 0 already current, 1 failed\n"), "\(run.output)")
        #expect(run.error.contains("tenants/old.sqlite: error: "), "\(run.error)")
        #expect(run.error.contains("0002_b.sql is older than the newest applied migration (3)"), "\(run.error)")
        for name in absent { #expect(try Self.version(folder.file(name)) == 3, "\(name)") }
        #expect(try tableNames(folder.file("tenants/old.sqlite")) == ["a", "c", "cellar_migrations"])
    }
}
