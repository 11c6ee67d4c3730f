import CellarCLI
import CellarKit
import Glibc
import TestSupport
import Testing

/// `create`, `drop`, `wait`, the dbmate aliases and `--dump-schema`, in-process.
@Suite struct DatabaseLifecycleCommandTests {
    @Test func createMakesAnEmptyDatabaseOnceOnly() throws {
        let project = try CLIProject()
        let created = project.run(["create"])
        #expect(created.status == 0, "\(created)")
        #expect(try FileBytes.read(project.databasePath).starts(with: Array("SQLite format 3\0".utf8)))
        #expect(try project.tables().isEmpty)
        let again = project.run(["create"])
        #expect(again.status == 1)
        #expect(again.error == "cellar: error: database '\(project.databasePath)' already exists\n")
    }

    @Test func dropNeedsForceOffATerminalAndDeletesCompanions() throws {
        let project = try CLIProject(["0001_w.sql": createWineries])
        #expect(project.run(["migrate"]).status == 0)
        let refused = project.run(["drop"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("pass --force"))
        #expect(try project.tables().contains("wineries"))
        for companion in ["-wal", "-shm", "-journal"] { try project.folder.write("test.db\(companion)", "") }
        let dropped = project.run(["drop", "--force"])
        #expect(dropped.status == 0, "\(dropped)")
        for suffix in ["", "-wal", "-shm", "-journal"] { #expect(access(project.databasePath + suffix, F_OK) != 0) }
        let missing = project.run(["drop", "--force"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("no database at"))
    }

    @Test func waitReturnsAtOnceForAReadableDatabaseAndGivesUpOnAMissingOne() throws {
        let project = try CLIProject()
        let gaveUp = project.run(["wait", "--timeout", "200ms"])
        #expect(gaveUp.status == 1)
        #expect(gaveUp.error.contains("gave up waiting after 200 ms"))
        #expect(project.run(["create"]).status == 0)
        let ready = project.run(["wait", "--timeout", "1s"])
        #expect(ready.status == 0 && ready.error.isEmpty, "\(ready)")
        #expect(project.run(["wait", "--timeout", "soon"]).status == 2)
    }

    @Test func upAndDownAreSetupAndRollback() throws {
        let project = try CLIProject(["0001_w.sql": createWineries])
        try project.folder.write("seeds/.keep", "")
        let up = project.run(["up"])
        #expect(up.status == 0, "\(up)")
        #expect(up.output.contains("now at version 1"))
        let down = project.run(["down"])
        #expect(down.status == 0, "\(down)")
        #expect(try project.scalar("SELECT count(*) FROM cellar_migrations") == .integer(0))
        #expect(project.run(["up", "--help"]).output.contains("ALIASES: up"))
    }

    @Test(arguments: ["migrate", "setup"])
    func dumpSchemaWritesTheSchemaAfterASuccessfulRun(command: String) throws {
        let project = try CLIProject(["0001_w.sql": createWineries])
        try project.folder.write("seeds/.keep", "")
        let schemaFile = project.folder.file("schema.sql")
        let result = project.run([command, "--dump-schema", schemaFile])
        #expect(result.status == 0, "\(result)")
        #expect(try FileBytes.readText(schemaFile) == "CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);\n")
        try project.folder.write("migrations/0002_bad.sql", "CREATE TABLE oops (;\n")
        try project.folder.write("schema.sql", "unchanged\n")
        #expect(project.run([command, "--dump-schema", schemaFile]).status == 1)
        #expect(try FileBytes.readText(schemaFile) == "unchanged\n")
    }
}
