import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// A fleet reads its migration folder once: the first database's read serves every other one, a folder
/// that cannot be read fails them all alike, and another folder is read on its own.
@Suite struct FleetMigrationFilesTests {
    private static func write(_ files: [String: String], in folder: String) throws {
        for (name, text) in files { try FileContents.write(Array(text.utf8), to: folder + "/" + name) }
    }

    @Test func theFolderIsReadOnceForEveryDatabase() throws {
        let temporary = TemporaryDirectory()
        try Self.write(["0001_a.sql": "CREATE TABLE a (x);\n", "0002_b.sql": "CREATE TABLE b (y);\n"], in: temporary.path)
        let shared = FleetMigrationFiles()
        var reads = 0
        for _ in 0..<5 {
            let files = try shared.files(in: temporary.path) { () throws(MigrationError) in
                reads += 1
                return try MigrationSource.folder(temporary.path).loadReportingProblems()
            }
            #expect(files.migrations.map(\.version) == [1, 2])
        }
        #expect(reads == 1)
    }

    @Test func aMissingFolderFailsEveryDatabaseWithOneRead() {
        let missing = TemporaryDirectory().path + "/nowhere"
        let shared = FleetMigrationFiles()
        var reads = 0
        for _ in 0..<3 {
            #expect(throws: MigrationError.self) {
                try shared.files(in: missing) { () throws(MigrationError) in
                    reads += 1
                    return try MigrationSource.folder(missing).loadReportingProblems()
                }
            }
        }
        #expect(reads == 1)
    }

    @Test func anotherFolderIsReadOnItsOwn() throws {
        let first = TemporaryDirectory()
        let second = TemporaryDirectory()
        try Self.write(["0001_a.sql": "CREATE TABLE a (x);\n"], in: first.path)
        try Self.write(["0007_g.sql": "CREATE TABLE g (x);\n"], in: second.path)
        let shared = FleetMigrationFiles()
        for folder in [first.path, second.path, first.path] {
            _ = try shared.files(in: folder) { () throws(MigrationError) in
                try MigrationSource.folder(folder).loadReportingProblems()
            }
        }
        var reads = 0
        let again = try shared.files(in: second.path) { () throws(MigrationError) in
            reads += 1
            return try MigrationSource.folder(first.path).loadReportingProblems()
        }
        #expect(reads == 0)
        #expect(again.migrations.map(\.version) == [7])
    }

    /// Through the command line: a fleet with a malformed pending file fails every database with the
    /// file's error, as each would fail alone, and leaves them unchanged; the error is shown once, with
    /// the count of databases that had it.
    @Test func aBadFileFailsEveryDatabaseOfTheFleet() throws {
        let temporary = TemporaryDirectory()
        let migrations = temporary.path + "/migrations"
        TemporaryDirectory.makeFolders(migrations)
        try Self.write(["0001_a.sql": "CREATE TABLE a (x);\n", "0002_b.sql": ""], in: migrations)
        let databases = (1...3).map { temporary.path + "/tenant\($0).db" }
        let run = InProcessRun(["migrate", "-m", migrations] + databases.flatMap { ["-d", $0] })
        #expect(run.status == 1)
        #expect(run.error.split(separator: "\n").filter { $0.contains("0002_b.sql") }.count == 1, "\(run.error)")
        #expect(run.error.contains("\n3 failed with: error: empty file: no SQL and no comment ("), "\(run.error)")
        for database in databases { #expect(!DirectoryListing.isRegularFile(database), "\(database) was created") }
    }
}
