import CellarKit
import Glibc
import TestSupport
import Testing

/// Small histories made for these tests in the shapes real projects keep (diesel's comment-only
/// sections, golang-migrate's files with their own `BEGIN … COMMIT`), and the everyday work around
/// them: baselines, rollbacks, seeds run from another directory.
@Suite struct HistoryEndToEndTests {
    private static let repository = String(
        #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))

    /// A history in the shapes real ones have: a diesel-style pair with a comment-only down section, a
    /// placeholder left after a squash, and a file that manages its own transaction.
    private func importedHistory() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try folder.write(
            "migrations/20240101000000_create_users.sql",
            "-- migrate:up\nCREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL);\n"
                + "-- migrate:down\n-- This file should undo anything in `up.sql`\n")
        try folder.write(
            "migrations/20240102000000_squashed.sql", "-- migrate:up\n-- squashed into 20240101000000\n-- migrate:down\n")
        try folder.write(
            "migrations/20240103000000_posts.sql",
            "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER);\n"
                + "CREATE INDEX posts_by_user ON posts (user_id);\nCOMMIT;\n-- migrate:down\nDROP TABLE posts;\n")
        return folder
    }

    @Test func anImportedHistoryWithEmptySectionsAppliesAndRollsBackToZero() throws {
        let folder = try importedHistory()
        let migrated = try Cellar.run(["migrate"], in: folder.path)
        #expect(migrated.status == 0, "\(migrated)")
        #expect(
            migrated.error
                == "cellar: warning: migrations/20240102000000_squashed.sql: the up section holds no statement; applied as a no-op\n"
        )
        let status = try Cellar.run(["status"], in: folder.path)
        #expect(status.output.contains(#/applied  20240102000000 squashed +\S+ \(\d+ ms\)  \[empty\]\n/#), "\(status)")
        let undone = try Cellar.run(["rollback", "--to", "0"], in: folder.path)
        #expect(undone.status == 0, "\(undone)")
        #expect(try tableNames(folder.file("cellar.sqlite")) == ["cellar_migrations", "users"])
        #expect(try Database(path: folder.file("cellar.sqlite")).scalar("SELECT count(*) FROM cellar_migrations") == .integer(0))
    }

    @Test func aFileWithItsOwnTransactionNeedsTransactionFalse() throws {
        let folder = try importedHistory()
        try folder.write(
            "migrations/20240103000000_posts.sql",
            "BEGIN;\nCREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER);\nCOMMIT;\n")
        let result = try Cellar.run(["migrate"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.error.contains("migrations/20240103000000_posts.sql:1:1: error: BEGIN is not allowed here"), "\(result)")
        #expect(result.error.contains("transaction:false"))
        #expect(try tableNames(folder.file("cellar.sqlite")) == ["cellar_migrations", "users"])
    }

    @Test func theUntouchedTemplateIsRefusedButListed() throws {
        let folder = try importedHistory()
        let created = try Cellar.run(["new", "todo"], in: folder.path)
        #expect(created.output == "migrations/20240103000001_todo.sql\n", "\(created)")
        let status = try Cellar.run(["status"], in: folder.path)
        #expect(status.output.contains(#/pending  20240103000001 todo +\[not written yet/#), "\(status)")
        let shell = try Cellar.run(["shell", "-d", "shell.db"], in: folder.path, input: ".migrations\n")
        #expect(shell.output.contains("pending  20240103000001 todo"), "\(shell)")
        let refused = try Cellar.run(["migrate"], in: folder.path)
        #expect(refused.status == 1)
        #expect(
            refused.error
                == "migrations/20240103000001_todo.sql: error: not written yet: its up section is still the template 'cellar new' wrote\n"
        )
        #expect(!FileBytes.exists(folder.file("cellar.sqlite")))
    }

    @Test func rollbackPastABaselineIsRefusedAndKeepsTheData() throws {
        let folder = try importedHistory()
        try Shell.run(
            "/usr/bin/sqlite3", [folder.file("cellar.sqlite")],
            input: Array(
                "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL); INSERT INTO users VALUES (1, 'a@b.c');".utf8))
        #expect(try Cellar.run(["baseline", "20240101000000"], in: folder.path).status == 0)
        #expect(try Cellar.run(["migrate"], in: folder.path).status == 0)
        let refused = try Cellar.run(["rollback", "--steps", "10"], in: folder.path)
        #expect(refused.status == 1)
        #expect(
            refused.error.hasPrefix(
                "cellar: error: cannot undo 10 migrations: only 2 may be undone; migration 20240101000000 (create_users) was recorded by baseline"
            ), "\(refused)")
        let toZero = try Cellar.run(["rollback", "--to", "0"], in: folder.path)
        #expect(toZero.status == 0, "\(toZero)")
        #expect(toZero.error.contains("cellar: note: stopped at version 20240101000000"))
        let database = try Database(path: folder.file("cellar.sqlite"))
        #expect(try database.scalar("SELECT email FROM users") == .text("a@b.c"))
    }

    @Test func theExampleSetsUpFromAnotherDirectoryRollsBackToZeroAndSeedsAgain() throws {
        let folder = TemporaryDirectory()
        try Shell.run("/bin/cp", ["-R", "\(Self.repository)/migrations", "\(Self.repository)/seeds", folder.path])
        try folder.write("elsewhere/.keep", "")
        let arguments = ["-d", folder.file("wine.db"), "-m", folder.file("migrations"), "--seeds", folder.file("seeds")]
        let setup = try Cellar.run(["setup"] + arguments, in: folder.file("elsewhere"))
        #expect(setup.status == 0, "\(setup)")
        let labels = "SELECT count(*) FROM wine WHERE hex(substr(label, 1, 4)) = '89504E47'"
        #expect(try Database(path: folder.file("wine.db")).scalar(labels) == .integer(6))
        let undone = try Cellar.run(["rollback", "--to", "0"] + arguments, in: folder.file("elsewhere"))
        #expect(undone.output.contains("forgot 2 seeds"), "\(undone)")
        let again = try Cellar.run(["setup"] + arguments, in: folder.file("elsewhere"))
        #expect(again.output.contains("\napplied 3 migrations and 2 seeds in "), "\(again)")
        #expect(try Database(path: folder.file("wine.db")).scalar(labels) == .integer(6))
        for seed in ["0001_wineries.sql", "0002_wines.sql"] {
            let forced = try Cellar.run(["seed", folder.file("seeds/\(seed)"), "--force"] + arguments, in: folder.path)
            #expect(forced.status == 0, "\(seed): \(forced)")
        }
        #expect(try Database(path: folder.file("wine.db")).scalar("SELECT count(*) FROM wine") == .integer(6))
    }

    @Test func aSeedWhoseFileIsMissingIsAnErrorNamingThePath() throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_labels.sql", "CREATE TABLE labels (image BLOB NOT NULL DEFAULT x'');\n")
        try folder.write("seeds/0001_labels.sql", "INSERT INTO labels VALUES (readfile('labels/gone.png'));\n")
        let result = try Cellar.run(["setup"], in: folder.path)
        #expect(result.status == 1)
        #expect(
            result.error.hasPrefix(
                "seeds/0001_labels.sql:1:1: error: readfile: cannot read '\(folder.file("seeds/labels/gone.png"))': No such file or directory"
            ), "\(result)")
        #expect(try Database(path: folder.file("cellar.sqlite")).scalar("SELECT count(*) FROM labels") == .integer(0))
    }

    // MARK: - new

    @Test func newNeverDuplicatesAVersionWhateverTheMix() throws {
        let folder = try importedHistory()
        var created: [String] = []
        for arguments in [
            ["new", "a", "--timestamp"], ["new", "b", "--timestamp"], ["new", "c"], ["new", "d", "--timestamp"],
        ] {
            let result = try Cellar.run(arguments, in: folder.path)
            #expect(result.status == 0, "\(result)")
            created.append(result.output)
        }
        let versions = try DirectoryListing.fileNames(in: folder.file("migrations")).compactMap {
            MigrationParser.parseFileName($0)?.version
        }
        #expect(Set(versions).count == versions.count, "\(created)")
        #expect(versions.count == 7)
        let status = try Cellar.run(["status"], in: folder.path)
        #expect(status.status == 0, "\(status)")
    }

    @Test func newOnAFullDiskLeavesNothingBehind() throws {
        let folder = try importedHistory()
        let before = try DirectoryListing.fileNames(in: folder.file("migrations"))
        // A file-size limit of 0 with SIGXFSZ ignored makes every write to a file fail with EFBIG, as a
        // full disk would; cellar's streams go through a pipe, which the limit does not touch.
        let result = try Shell.run(
            "/bin/sh",
            ["-c", "trap '' XFSZ; ( ulimit -f 0; \"$0\" new todo; echo \"exit $?\" ) 2>&1 | cat", Cellar.executablePath],
            environment: Cellar.cleanEnvironment, directory: folder.path)
        #expect(
            result.output
                == "cellar: error: cannot create 'migrations/20240103000001_todo.sql': File too large\nexit 1\n", "\(result)")
        #expect(try DirectoryListing.fileNames(in: folder.file("migrations")) == before)
        #expect(try Cellar.run(["migrate"], in: folder.path).status == 0)
    }

    @Test func aMissingMigrationsFolderSaysWhereItLookedAndHowToPointElsewhere() throws {
        let folder = TemporaryDirectory()
        let result = try Cellar.run(["migrate"], in: folder.path)
        #expect(result.status == 1)
        #expect(
            result.error
                == "cellar: error: no folder 'migrations' (looked in \(folder.path)/migrations); point elsewhere with "
                + "-m/--migrations DIR or CELLAR_MIGRATIONS\n")
    }
}
