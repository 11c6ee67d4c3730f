import Glibc
import TestSupport
import Testing

/// cellar against a real 3-node dqlite cluster: the same output as on a file.
@Suite(.serialized, .enabled(if: DqliteCluster.unavailableReason == nil, "\(DqliteCluster.unavailableReason ?? "")"))
struct DqliteEndToEndSlowTests {
    @Test func migrateStatusQueryAndSchemaMatchALocalFile() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(3)
        let remote = try project.remote(cluster, "app", ["migrate"])
        let local = try project.local("app.sqlite", ["migrate"])
        #expect(remote.status == 0, "\(remote)")
        #expect(remote.output.hasPrefix("applied 3 migrations in ") && remote.output.hasSuffix("; now at version 3\n"))
        #expect(local.output.hasPrefix("applied 3 migrations in "))
        #expect(try project.remote(cluster, "app", ["migrate"]).output == "nothing to apply; the database is at version 3\n")
        let query = "SELECT version, typeof(version) FROM runs ORDER BY version; SELECT 1.5, 'x', x'00ff', NULL, 1e300"
        for mode in ["csv", "box", "json", "quote"] {
            let remoteRows = try project.remote(cluster, "app", ["query", query, "--mode", mode])
            let localRows = try project.local("app.sqlite", ["query", query, "--mode", mode])
            #expect(remoteRows.output == localRows.output, "mode \(mode)")
        }
        #expect(try project.remote(cluster, "app", ["schema"]).output == project.local("app.sqlite", ["schema"]).output)
        let status = try project.remote(cluster, "app", ["status"])
        #expect(status.output.contains("database \(cluster.url("app")) at version 3"))
        #expect(status.output.contains("applied  0003 t3"))
        #expect(try project.remote(cluster, "app", ["verify"]).status == 0)
    }

    @Test func aFailingMigrationIsRolledBackWithTheLocalMessage() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.migration("0001_a.sql", "CREATE TABLE a(x UNIQUE);")
        try project.migration("0002_b.sql", "CREATE TABLE b(y);\nINSERT INTO a VALUES (1);\nINSERT INTO a VALUES (1);")
        try project.migration("0003_c.sql", "CREATE TABLE c(z);\nINSERT INTO c VALUES (1) oops;")
        let remote = try project.remote(cluster, "app", ["migrate"])
        let local = try project.local("app.sqlite", ["migrate"])
        #expect(remote.status == 1 && local.status == 1)
        #expect(remote.error == local.error)
        #expect(remote.error.contains("migrations/0002_b.sql:4:1: error: UNIQUE constraint failed: a.x"))
        #expect(
            try project.remote(cluster, "app", ["query", "SELECT name FROM sqlite_schema ORDER BY name", "--mode", "list"]).output
                == "a\ncellar_migrations\nsqlite_autoindex_a_1\n")
        try project.migration("0002_b.sql", "CREATE TABLE b(y);")
        let syntax = try project.remote(cluster, "app", ["migrate"])
        #expect(syntax.error == (try project.local("app.sqlite", ["migrate"])).error)
        #expect(syntax.error.contains("0003_c.sql:3:26: error: near \"oops\": syntax error"))
    }

    @Test func transactionControlIsRefusedBeforeAnythingIsSent() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.migration("0001_a.sql", "CREATE TABLE a(x);\n  COMMIT;\nCREATE TABLE b(y);")
        let remote = try project.remote(cluster, "app", ["migrate"])
        let local = try project.local("app.sqlite", ["migrate"])
        #expect(remote.status == 1)
        #expect(remote.error == local.error)
        #expect(remote.error.contains("0001_a.sql:3:3: error: COMMIT is not allowed here"))
        let tables = try project.remote(cluster, "app", ["query", "SELECT count(*) FROM sqlite_schema", "--mode", "list"])
        #expect(tables.output == "0\n")
    }

    @Test func theURLIsReadFromCellarDatabaseAndDatabaseURL() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(2)
        let viaVariable = try project.cellar(["migrate"], environment: ["CELLAR_DATABASE": cluster.url("env")])
        #expect(viaVariable.output.hasSuffix("now at version 2\n"), "\(viaVariable)")
        let viaURL = try project.cellar(["status", "--exit-code"], environment: ["DATABASE_URL": cluster.url("env")])
        #expect(viaURL.status == 0 && viaURL.output.hasPrefix("database \(cluster.url("env")) at version 2"), "\(viaURL)")
    }

    @Test func aDeadNodeListedFirstIsPassedOver() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(2)
        let dead = try DqliteCluster.freePorts(1)[0]
        let url = "dqlite://127.0.0.1:\(dead),\(cluster.addressList)/app"
        let result = try project.cellar(["-d", url, "migrate"])
        #expect(result.status == 0 && result.output.hasSuffix("now at version 2\n"), "\(result)")
    }

    @Test func allNodesDownIsAClearErrorWithinTheBusyTimeout() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(2)
        cluster.killAll()
        let result = try project.remote(cluster, "app", ["migrate"], busyTimeout: 1500)
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("cellar: error: \(cluster.url("app")): no dqlite leader found among "), "\(result)")
        #expect(result.error.contains("within the busy timeout (1500 ms)"))
    }

    @Test(arguments: [
        (["create"], "'create' works on database files"),
        (["migrate", "--dry-run"], "migrate --dry-run is not available on a dqlite database"),
        (["--load-extension", "x.so", "status"], "--load-extension cannot load into a dqlite database"),
    ])
    func whatARemoteDatabaseCannotDoIsAClearError(arguments: [String], message: String) throws {
        let project = DqliteProject()
        try project.loggedMigrations(2)
        let result = try project.cellar(["-d", "dqlite://127.0.0.1:1/app"] + arguments)
        #expect(result.status == 1)
        #expect(result.error.contains(message), "\(result)")
    }
}
