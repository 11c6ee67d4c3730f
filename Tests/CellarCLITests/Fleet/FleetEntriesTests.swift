import CellarKit
import Glibc
import TestSupport
import Testing

/// What a fleet's list holds that is no database: SQLite's files beside a database, empty files, names
/// that are not UTF-8, and folders `**` reaches through a symbolic link. None of them is opened.
@Suite struct FleetEntriesTests {
    /// A project with one migration and databases at version 0 under `tenants/`.
    private static func project(databases names: [String]) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);\n")
        for name in names {
            let path = folder.file(name)
            TemporaryDirectory.makeFolders(String(path[..<path.lastIndex(of: "/")!]))
            try Database(path: path).execute("CREATE TABLE app (x)")
        }
        return folder
    }

    private static func size(_ path: String) -> Int? {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : nil
    }

    /// The names in `folder` as the file system has them.
    private static func rawNames(in folder: String) -> [[UInt8]] {
        guard let handle = opendir(folder) else { return [] }
        defer { closedir(handle) }
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E], name != [0x2E, 0x2E] { names.append(name) }
        }
        return names
    }

    /// The failing case of the report: an idle database's empty `-wal` opened as an empty database and
    /// migrated, counted as migrated; the app's next checkpoint then corrupts its database.
    @Test func aPatternLeavesOutTheWalShmAndJournalOfItsDatabasesAndRefusesAnEmptyFile() throws {
        let folder = try Self.project(databases: ["tenants/app.sqlite", "tenants/other.sqlite"])
        for name in ["tenants/app.sqlite-wal", "tenants/app.sqlite-shm", "tenants/other.sqlite-journal", "tenants/empty.sqlite"] {
            try folder.write(name, "")
        }
        for pattern in ["tenants/*", "tenants/*.sqlite*"] {
            let run = InProcessRun(["migrate", "-m", folder.file("migrations"), "-d", folder.file(pattern)])
            #expect(run.status == 1, "\(run)")
            #expect(!run.output.contains("-wal") && !run.output.contains("-shm") && !run.output.contains("-journal"), "\(run)")
            #expect(
                run.error.contains(
                    "tenants/empty.sqlite: error: '\(folder.file("tenants/empty.sqlite"))' is not a database: the file is "
                        + "empty (SQLite would take it for a new database); it was not opened\n"), "\(run)")
            let migrated = pattern == "tenants/*" ? 2 : 0
            #expect(
                run.output.hasSuffix("3 databases: \(migrated) migrated, \(2 - migrated) already current, 1 failed\n"), "\(run)")
        }
        for name in ["tenants/app.sqlite-wal", "tenants/app.sqlite-shm", "tenants/other.sqlite-journal", "tenants/empty.sqlite"] {
            // SQLite itself removes other.sqlite's journal when it commits there.
            #expect((Self.size(folder.file(name)) ?? 0) == 0, "\(name) was written")
        }
    }

    @Test func aListOrARepeatedDatabaseNamingAWalFileIsRefusedAndTheFileLeftAlone() throws {
        let folder = try Self.project(databases: ["app.sqlite"])
        let wal = try folder.write("app.sqlite-wal", "")
        let journal = try folder.write("app.sqlite-journal", "")
        try folder.write("list", "\(folder.file("app.sqlite"))\n\(wal)\n")
        let migrations = folder.file("migrations")
        let fromList = InProcessRun(["migrate", "-m", migrations, "--databases-from", folder.file("list")])
        let repeated = InProcessRun(["migrate", "-m", migrations, "-d", folder.file("app.sqlite"), "-d", journal])
        #expect(fromList.status == 1 && repeated.status == 1, "\(fromList)\n\(repeated)")
        #expect(
            fromList.error.contains(
                "app.sqlite-wal: error: '\(wal)' is the write-ahead log of the database '\(folder.file("app.sqlite"))', "
                    + "not a database; it was not opened"), "\(fromList)")
        #expect(repeated.error.contains("is the rollback journal of the database"), "\(repeated)")
        #expect(Self.size(wal) == 0 && (Self.size(journal) ?? 0) == 0)
    }

    /// A file whose name is not UTF-8 was left out of a pattern silently (exit 0), and named in a list it
    /// made cellar create and migrate a different file (U+FFFD in its name).
    @Test func aNameThatIsNotUTF8IsRefusedNamingItAndNoOtherFileIsCreated() throws {
        let folder = try Self.project(databases: ["tenants/plain.sqlite"])
        let bad = Array(folder.file("tenants/caf").utf8) + [0xE9] + Array(".sqlite".utf8)
        try Database(path: folder.file("tenants/made.sqlite")).execute("CREATE TABLE t (x)")
        let badName = bad.map { CChar(bitPattern: $0) } + [0]
        #expect(rename(folder.file("tenants/made.sqlite"), badName) == 0)
        defer { unlink(badName) }
        try folder.write("list", "")
        let list = folder.file("list")
        let line = Array(folder.file("tenants/plain.sqlite").utf8) + [0x0A] + bad + [0x0A]
        try FileContents.write(line, to: list)
        let migrations = folder.file("migrations")
        let fromPattern = InProcessRun(["migrate", "-m", migrations, "-d", folder.file("tenants/*.sqlite")])
        let fromList = InProcessRun(["migrate", "-m", migrations, "--databases-from", list])
        for run in [fromPattern, fromList] {
            #expect(run.status == 1, "\(run)")
            #expect(run.error.contains("tenants/caf\\xe9.sqlite: error: the name is not valid UTF-8"), "\(run)")
            #expect(run.output.contains("2 databases: "), "\(run)")
        }
        #expect(fromList.error.contains("(line 2 of --databases-from)"), "\(fromList)")
        let names = Self.rawNames(in: folder.file("tenants"))
        #expect(names.count == 2 && names.contains(Array("caf".utf8) + [0xE9] + Array(".sqlite".utf8)), "\(names)")
    }

    /// One `up -> ..` link turned 2 databases into 82, each migrated 41 times.
    @Test func doubleStarDoesNotFollowALinkToAFolder() throws {
        let folder = try Self.project(databases: ["tenants/a.sqlite", "tenants/sub/b.sqlite"])
        #expect(symlink("..", folder.file("tenants/sub/up")) == 0)
        // A link to a folder elsewhere is not walked either (one to `/` would walk the whole disk).
        TemporaryDirectory.makeFolders(folder.file("elsewhere"))
        try Database(path: folder.file("elsewhere/c.sqlite")).execute("CREATE TABLE app (x)")
        #expect(symlink("../elsewhere", folder.file("tenants/other")) == 0)
        let run = InProcessRun(["migrate", "-m", folder.file("migrations"), "-d", folder.file("tenants/**/*.sqlite")])
        #expect(run.status == 0, "\(run)")
        #expect(run.output.hasSuffix("2 databases: 2 migrated, 0 already current, 0 failed\n"), "\(run)")
        #expect(run.output.contains("tenants/a.sqlite: applied") && run.output.contains("tenants/sub/b.sqlite: applied"))
    }
}
