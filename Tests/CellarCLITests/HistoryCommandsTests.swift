import CellarCLI
import CellarKit
import TestSupport
import Testing

/// What real histories and everyday work hit: empty sections, baselines, rollbacks and seeds.
@Suite struct HistoryCommandsTests {
    private let history = [
        "0001_wineries.sql": createWineries,
        "0002_placeholder.sql": "-- migrate:up\n-- This file should undo anything in `up.sql`\n\n-- migrate:down\n-- nothing\n",
        "0003_wine.sql":
            "-- migrate:up\nCREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT);\n-- migrate:down\nDROP TABLE wine;\n",
    ]

    @Test func emptySectionsApplyAndRollBackAsNoOpsWithAWarning() throws {
        let project = try CLIProject(history)
        let migrated = project.run(["migrate"])
        #expect(migrated.status == 0, "\(migrated.error)")
        #expect(
            migrated.error
                == "cellar: warning: \(project.migrationsPath)/0002_placeholder.sql: the up section holds no statement; applied as a no-op\n"
        )
        let status = project.run(["status"])
        #expect(status.output.contains(#/applied  0002 placeholder  \S+ \(\d+ ms\)  \[empty\]\n/#))
        let undone = project.run(["rollback", "--to", "0"])
        #expect(undone.status == 0, "\(undone.error)")
        #expect(undone.error.contains("0002_placeholder.sql: the down section holds no statement"))
        #expect(try project.tables() == ["cellar_migrations"])
    }

    @Test func stepsBeyondWhatMayBeUndoneIsAnErrorThatChangesNothing() throws {
        let project = try CLIProject(history)
        #expect(project.run(["migrate"]).status == 0)
        let result = project.run(["rollback", "--steps", "10"])
        #expect(result.status == 1)
        #expect(result.error == "cellar: error: cannot undo 10 migrations: only 3 may be undone; nothing was changed\n")
        #expect(try project.scalar("SELECT count(*) FROM cellar_migrations") == .integer(3))
    }

    @Test func baselinedMigrationsAreNeverUndone() throws {
        let project = try CLIProject(history)
        try project.folder.write("setup.sql", "CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);")
        #expect(project.run(["run", project.folder.file("setup.sql")]).status == 0)
        #expect(project.run(["query", "INSERT INTO wineries (name) VALUES ('Ridge')"]).status == 0)
        #expect(project.run(["baseline", "1"]).status == 0)
        #expect(project.run(["migrate"]).status == 0)
        let tooMany = project.run(["rollback", "--steps", "10"])
        #expect(tooMany.status == 1)
        #expect(
            tooMany.error
                == "cellar: error: cannot undo 10 migrations: only 2 may be undone; migration 1 (wineries) was recorded by "
                + "baseline and is never undone (its down section would drop what the migrations did not create); "
                + "nothing was changed\n")
        let toZero = project.run(["rollback", "--to", "0"])
        #expect(toZero.status == 0, "\(toZero.error)")
        #expect(toZero.output.hasSuffix("; now at version 1\n"))
        #expect(
            toZero.error.hasSuffix(
                "cellar: note: stopped at version 1: migration 1 (wineries) was recorded by baseline and is never undone (its down section would drop what the migrations did not create)\n"
            ))
        #expect(try project.scalar("SELECT name FROM wineries") == .text("Ridge"))
        #expect(try project.scalar("SELECT kind FROM cellar_migrations") == .text("baseline"))
    }

    @Test func rollbackToZeroForgetsTheSeedsSoSetupRunsThemAgain() throws {
        let project = try CLIProject(history)
        try project.folder.write("seeds/0001_wineries.sql", "INSERT INTO wineries (name) VALUES ('Ridge');\n")
        #expect(project.run(["setup"]).status == 0)
        let undone = project.run(["rollback", "--to", "0"])
        #expect(undone.status == 0, "\(undone.error)")
        #expect(
            undone.output.contains(
                "; now at version 0; forgot 1 seed (their data went with the tables), so the next setup runs them again\n"))
        let again = project.run(["setup"])
        #expect(again.output.contains("\napplied 3 migrations and 1 seed in "), "\(again.output)")
        #expect(try project.scalar("SELECT count(*) FROM wineries") == .integer(1))
    }

    @Test func aPartialRollbackWarnsNamingTheSeedsAppliedAfterIt() throws {
        let project = try CLIProject(history)
        try project.folder.write("seeds/0001_wine.sql", "INSERT INTO wine (name) VALUES ('Monte Bello');\n")
        #expect(project.run(["setup"]).status == 0)
        let undone = project.run(["rollback"])
        #expect(undone.status == 0, "\(undone.error)")
        #expect(
            undone.error
                == "cellar: warning: seed 0001_wine.sql ran after migration 3 and stays recorded as applied; if the "
                + "rollback dropped its data, run 'cellar seed FILE --force'\n")
        #expect(try project.scalar("SELECT count(*) FROM cellar_seeds") == .integer(1))
    }

    @Test func aForeignLedgerIsRefusedWithAClearError() throws {
        let project = try CLIProject(history)
        try project.folder.write(
            "foreign.sql", "CREATE TABLE cellar_migrations (version TEXT PRIMARY KEY, name TEXT, applied TEXT);")
        #expect(project.run(["run", project.folder.file("foreign.sql")]).status == 0)
        for command in [["migrate"], ["status"], ["rollback"], ["accept", "1"], ["baseline", "1"]] {
            let result = project.run(command)
            #expect(result.status == 1, "\(command)")
            #expect(
                result.error
                    == "cellar: error: table main.cellar_migrations is not cellar's ledger (column version is declared TEXT, "
                    + "not INTEGER); nothing was read or changed\n", "\(command)")
        }
        #expect(try project.tables() == ["cellar_migrations"])
    }

    // MARK: - Seeds

    @Test func setupWarnsAboutAChangedSeedNamingTheForceCommand() throws {
        let project = try CLIProject(history)
        let seed = try project.folder.write("seeds/0001_wineries.sql", "INSERT INTO wineries (name) VALUES ('Ridge');\n")
        #expect(project.run(["setup"]).status == 0)
        try project.folder.write("seeds/0001_wineries.sql", "INSERT INTO wineries (name) VALUES ('Musar');\n")
        let again = project.run(["setup"])
        #expect(again.status == 0)
        #expect(
            again.error
                == "cellar: warning: \(seed): seed changed after it was applied; it is not run again "
                + "(to apply it again: cellar seed \(seed) --force)\n")
        #expect(project.run(["seed", seed, "--force"]).status == 0)
        #expect(project.run(["setup"]).error.isEmpty)
    }

    @Test func aSeedNamedOutsideTheSeedsFolderIsRefused() throws {
        let project = try CLIProject(history)
        #expect(project.run(["migrate"]).status == 0)
        let other = try project.folder.write("fixes/0001_wineries.sql", "INSERT INTO wineries (name) VALUES ('Ridge');\n")
        try project.folder.write("seeds/0001_wineries.sql", "INSERT INTO wineries (name) VALUES ('Musar');\n")
        let result = project.run(["seed", other])
        #expect(result.status == 1)
        #expect(
            result.error
                == "\(other): error: not inside the seeds folder '\(project.folder.file("seeds"))', where seeds are "
                + "recorded by their name\ncellar: point --seeds (or CELLAR_SEEDS) at its folder, or run a one-off script "
                + "with 'cellar run \(other)'\n")
        #expect(try project.scalar("SELECT count(*) FROM wineries") == .integer(0))
    }

    // MARK: - A malformed pending file

    private func projectWithABrokenPendingFile() throws -> CLIProject {
        let project = try CLIProject(history)
        #expect(project.run(["migrate"]).status == 0)
        try project.folder.write("migrations/0004_broken.sql", "-- migrate:down\nDROP TABLE t;\n")
        return project
    }

    @Test func statusListsEveryMigrationAndMarksTheBrokenFile() throws {
        let project = try projectWithABrokenPendingFile()
        let status = project.run(["status"])
        #expect(status.status == 1)
        let lines = status.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(status.output)")
        #expect(lines[2].hasPrefix("  applied  0001 wineries"))
        #expect(lines[5] == "  error    0004_broken.sql   [error: 1:1: '-- migrate:down' without '-- migrate:up']")
        #expect(
            status.error
                == "cellar: error: a migration file cannot be used (marked [error] above): \(project.migrationsPath)/0004_broken.sql\n"
        )
        let json = project.run(["status", "--format", "json"])
        #expect(json.status == 1)
        #expect(
            json.output.contains(
                #"{"version": 4, "name": "0004_broken.sql", "state": "error", "checksum": null, "applied_at": null, "duration_ms": null, "error": "1:1: '-- migrate:down' without '-- migrate:up'"}"#
            ))
        let shell = project.run(["shell"], input: ".migrations\n")
        #expect(shell.output.contains("  error    0004_broken.sql   [error: 1:1:"), "\(shell)")
    }

    @Test func verifyChecksTheAppliedOnesAndWarnsAboutTheRest() throws {
        let project = try projectWithABrokenPendingFile()
        let verified = project.run(["verify"])
        #expect(verified.status == 0, "\(verified.error)")
        #expect(verified.output == "verified 3 applied migrations: all match their files\n")
        #expect(
            verified.error
                == "cellar: warning: \(project.migrationsPath)/0004_broken.sql: 1:1: '-- migrate:down' without "
                + "'-- migrate:up' (not applied, so not verified)\n")
        try project.folder.write("migrations/0003_wine.sql", "")
        let failed = project.run(["verify"])
        #expect(failed.status == 1)
        #expect(failed.error.hasPrefix("\(project.migrationsPath)/0003_wine.sql: error: empty file: no SQL and no comment\n"))
    }

    @Test func rollbackAcceptAndBaselineCheckOnlyTheFilesTheyActOn() throws {
        let project = try projectWithABrokenPendingFile()
        #expect(project.run(["accept", "3"]).status == 0)
        let wine = try FileBytes.readText(project.folder.file("migrations/0003_wine.sql"))
        try project.folder.write("migrations/0003_wine.sql", "")
        let broken = project.run(["rollback"])
        #expect(broken.status == 1)
        #expect(broken.error == "\(project.migrationsPath)/0003_wine.sql: error: empty file: no SQL and no comment\n")
        try project.folder.write("migrations/0003_wine.sql", wine)
        let undone = project.run(["rollback"])
        #expect(undone.status == 0, "\(undone.error)")
        #expect(project.run(["baseline", "3"]).status == 0)
        let refused = project.run(["baseline", "4"])
        #expect(refused.status == 1)
        #expect(refused.error.hasPrefix("\(project.migrationsPath)/0004_broken.sql:1:1: error: '-- migrate:down' without"))
        #expect(project.run(["migrate"]).status == 1)
    }

    @Test(arguments: [["verify"], ["status", "--exit-code"]])
    func checksOnAMissingDatabaseFail(command: [String]) throws {
        let project = try CLIProject(history)
        let result = project.run(command)
        #expect(result.status == 1)
        #expect(result.error == "cellar: error: no database at \(project.databasePath)\n")
        #expect(!FileBytes.exists(project.databasePath))
    }
}
