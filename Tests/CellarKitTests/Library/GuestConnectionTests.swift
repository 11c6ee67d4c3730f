import CellarKit
import TestSupport
import Testing

/// CellarKit on a connection an app owns: it leaves the house as it found it. The app's authorizer
/// stays installed (and is consulted while cellar works), its progress handler and pragmas stay, and
/// nothing is registered unasked.
@Suite struct GuestConnectionTests {
    /// A connection as an app sets it up: its own authorizer (which refuses the table `forbidden` and
    /// counts what it sees), progress handler, foreign keys on and a busy timeout.
    final class AppConnection {
        let database: Database
        var authorizerCalls = 0
        var progressCalls = 0

        init(path: String) throws {
            database = try Database(path: path, options: Database.Options(busyTimeout: 1234))
            try database.execute("PRAGMA foreign_keys = ON")
            try database.setAuthorizer { [unowned self] request in
                authorizerCalls += 1
                return request.first == "forbidden" ? .deny : .allow
            }
            try database.setProgressHandler(every: 1) { [unowned self] in
                progressCalls += 1
                return false
            }
        }

        /// Checks everything the app set is still in force.
        func expectUnchanged(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            #expect(throws: SQLiteError.self, "the app's authorizer still refuses", sourceLocation: sourceLocation) {
                try database.execute("CREATE TABLE forbidden (x)")
            }
            let calls = authorizerCalls
            let progress = progressCalls
            #expect(try database.scalar("SELECT count(*) FROM sqlite_schema") != nil)
            #expect(authorizerCalls > calls, "the app's authorizer is still consulted", sourceLocation: sourceLocation)
            _ = try database.query(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100) SELECT i FROM n")
            #expect(progressCalls > progress, "the app's progress handler still runs", sourceLocation: sourceLocation)
            #expect(try database.scalar("PRAGMA foreign_keys") == .integer(1), sourceLocation: sourceLocation)
            #expect(try database.scalar("PRAGMA busy_timeout") == .integer(1234), sourceLocation: sourceLocation)
            for function in ["readfile('x')", "writefile('x', 'y')"] {
                let error = #expect(throws: SQLiteError.self, sourceLocation: sourceLocation) {
                    try database.execute("SELECT \(function)")
                }
                #expect(error?.message.hasPrefix("no such function") == true, sourceLocation: sourceLocation)
            }
        }
    }

    @Test func migratingLeavesTheAppsConnectionAsItWas() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "2_wine.sql": wine])
        let app = try AppConnection(path: project.databasePath)
        let migrator = try Migrator(database: app.database, source: .folder(project.migrationsPath))
        migrator.observer = { _ in }
        try migrator.migrate()
        #expect(try project.versions(app.database) == [1, 2])
        try app.expectUnchanged()
        try migrator.rollback(.steps(1))
        try app.expectUnchanged()
    }

    @Test func theAppsAuthorizerIsConsultedWhileTheMigratorWorks() throws {
        let project = try MigrationProject(["1_forbidden.sql": "CREATE TABLE forbidden (x);"])
        let app = try AppConnection(path: project.databasePath)
        #expect(throws: MigrationError.self) { try project.migrator(app.database).migrate() }
        #expect(try project.tables(app.database).contains("forbidden") == false)
        try app.expectUnchanged()
    }

    @Test func runningAScriptLeavesTheAppsConnectionAsItWas() throws {
        let folder = TemporaryDirectory()
        let app = try AppConnection(path: folder.file("app.db"))
        try ScriptRunner(database: app.database).run(BufferSource("CREATE TABLE t(x); INSERT INTO t VALUES (1);"), path: "a.sql")
        try ScriptRunner(database: app.database, options: .init(isTransactional: false, isSafe: true)).run(
            BufferSource("INSERT INTO t VALUES (2);"), path: "b.sql")
        #expect(try app.database.scalar("SELECT count(*) FROM t") == .integer(2))
        try app.expectUnchanged()
    }

    @Test func seedingLeavesTheAppsConnectionAsItWas() throws {
        let project = try MigrationProject(["1_wineries.sql": wineries])
        let app = try AppConnection(path: project.databasePath)
        try project.migrator(app.database).migrate()
        let seed = try Seed(name: "1.sql", path: "1.sql", contents: Array("INSERT INTO wineries (name) VALUES ('a');".utf8))
        let seeder = Seeder(database: app.database)
        try seeder.run([seed])
        #expect(try seeder.status(of: [seed]).map(\.state) == [.applied])
        try app.expectUnchanged()
    }

    @Test func aPolicyNobodyHoldsStillRefuses() throws {
        let database = try Database(path: ":memory:")
        try ConnectionPolicy(refusesTransactionControl: true, isSafe: false).install(on: database)
        let error = #expect(throws: SQLiteError.self) { try database.execute("BEGIN") }
        #expect(error?.message == "not authorized")
        #expect(try database.isAutocommit)
    }

    @Test func fileFunctionsAreRegisteredOnlyWhenAsked() throws {
        let folder = TemporaryDirectory()
        let plain = try Database(path: ":memory:")
        #expect(throws: SQLiteError.self) { try plain.execute("SELECT readfile('x')") }
        let asked = try Database(path: ":memory:", options: Database.Options(registersFileFunctions: true))
        try asked.execute("SELECT writefile(?, 'hello')", [folder.file("out.txt")])
        #expect(try asked.scalar("SELECT readfile(?)", [folder.file("out.txt")]) == .blob(Array("hello".utf8)))
    }

    @Test func aDryRunsCopyHasTheFunctionsTheConnectionWasOpenedWith() throws {
        let project = try MigrationProject([
            "1_t.sql": "CREATE TABLE t (x); INSERT INTO t VALUES (shout('a'));"
        ])
        let shout = SQLFunction("shout", argumentCount: 1) { arguments in
            if case .text(let text) = arguments[0] { return .text(text + "!") } else { return .null }
        }
        let database = try Database(path: project.databasePath, options: Database.Options(functions: [shout]))
        let outcomes = try project.migrator(database).plan()
        #expect(outcomes.map(\.statementCount) == [2])
        #expect(try project.tables(database).isEmpty, "the dry run changes nothing")
    }
}
