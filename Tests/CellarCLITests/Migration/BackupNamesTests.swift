import CellarKit
import Glibc
import TestSupport
import Testing

/// `--backup-dir` names: each backup says whose it is, and none replaces or blocks another.
@Suite struct BackupNamesTests {
    private static func project() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);\n")
        TemporaryDirectory.makeFolders(folder.file("backups"))
        return folder
    }

    private static func encoded(_ path: String) -> String {
        path.replacing("%", with: "%25").replacing("/", with: "%2F")
    }

    /// The failing case of the report: every tenant's `app.sqlite` was backed up as
    /// `backups/app.sqlite.<time>.v0.bak`, so tenants backed up in the same second failed.
    @Test func tenantsWithTheSameFileNameGetBackupsOfTheirOwn() throws {
        let folder = try Self.project()
        let tenants = ["acme", "globex", "initech", "umbrella"].map { folder.file("tenants/\($0)/app.sqlite") }
        for path in tenants {
            TemporaryDirectory.makeFolders(String(path.dropLast("/app.sqlite".count)))
            try Database(path: path).execute("CREATE TABLE app (x); INSERT INTO app VALUES ('\(path)')")
        }
        let run = InProcessRun([
            "migrate", "-m", folder.file("migrations"), "-d", folder.file("tenants/*/app.sqlite"), "--backup-dir",
            folder.file("backups"), "--jobs", "4",
        ])
        #expect(run.status == 0, "\(run)")
        let backups = try DirectoryListing.fileNames(in: folder.file("backups"))
        #expect(backups.count == 4, "\(backups)")
        for path in tenants {
            let mine = backups.filter { $0.hasPrefix(Self.encoded(path) + ".") && $0.hasSuffix(".v0.bak") }
            #expect(mine.count == 1, "\(path): \(backups)")
            if let name = mine.first {
                let copy = try Database(path: folder.file("backups/\(name)"), options: .init(mode: .readOnly))
                #expect(try copy.scalar("SELECT x FROM app") == .text(path))
            }
        }
        #expect(!backups.contains { $0.contains(".partial-") })
    }

    /// A second backup of one database at one version in the same second (a rerun after a failure) used to fail with "File exists"
    /// (and apply nothing); it gets a name of its own.
    @Test func aSecondBackupInTheSameSecondGetsANameOfItsOwn() throws {
        let folder = try Self.project()
        try folder.write("migrations/0002_bad.sql", "CREATE TABLE a (x);\n")
        let database = folder.file("app.sqlite")
        try Database(path: database).execute("CREATE TABLE app (x)")
        let arguments = ["migrate", "-m", folder.file("migrations"), "-d", database, "--backup-dir", folder.file("backups")]
        for _ in 0..<3 {
            let run = InProcessRun(arguments)
            #expect(run.status == 1 && !run.error.contains("cannot back up"), "\(run)")
        }
        let backups = try DirectoryListing.fileNames(in: folder.file("backups"))
        #expect(backups.count == 3 && Set(backups).count == 3, "\(backups)")
        #expect(backups.allSatisfy { $0.hasPrefix(Self.encoded(database) + ".") }, "\(backups)")
        // The first run applied 0001 before 0002 failed: the two later backups are both of version 1.
        #expect(backups.filter { $0.hasSuffix(".v0.bak") }.count == 1 && backups.filter { $0.hasSuffix(".v1.bak") }.count == 2)
    }
}
