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
        // Each migration is named as it completes, then the summary; the same lines as on a file, times aside.
        let withoutTimes = { (output: String) in output.replacing(/\d+ ms/, with: "N ms") }
        #expect(withoutTimes(remote.output) == withoutTimes(local.output))
        #expect(remote.output.hasPrefix("applied 0001_"))
        #expect(remote.output.contains("\napplied 3 migrations in ") && remote.output.hasSuffix("; now at version 3\n"))
        #expect(try project.remote(cluster, "app", ["migrate"]).output == "nothing to apply; the database is at version 3\n")
        // Rows are read in place in the leader's frames: texts whose NUL and padding end a word exactly
        // (7 bytes), just past one (8) or fill two (15), bytes a mode escapes, integers at both ends.
        let query =
            "SELECT version, typeof(version) FROM runs ORDER BY version; SELECT 1.5, 'x', x'00ff', NULL, 1e300; "
            + "SELECT '1234567', '12345678', '123456789012345', '', 'a\"b,c''d' || char(10) || 'é' || char(27) || '[1m', "
            + "x'', -9223372036854775808, 9223372036854775807, 0, -1"
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

    @Test func statementsWithoutResultColumnsRunAsWritesAndTheRestAsQueries() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        let script = """
            PRAGMA foreign_keys = OFF; CREATE TABLE t(i);
            WITH c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 3) INSERT INTO t SELECT i FROM c;
            WITH c(n) AS (SELECT count(*) FROM t) SELECT n, '(not; a write)' FROM c;
            PRAGMA foreign_keys; INSERT INTO t VALUES (9); SELECT max(i) FROM t;
            """
        let remote = try project.remote(cluster, "app", ["query", script, "--mode", "list"])
        #expect(remote.status == 0, "\(remote)")
        #expect(try project.local("app.sqlite", ["create"]).status == 0)
        #expect(remote.output == (try project.local("app.sqlite", ["query", script, "--mode", "list"])).output)
        #expect(remote.output == "3|(not; a write)\n0\n9\n")
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

    @Test func schemaStatementsSentTogetherFailAtTheirOwnLineAndSucceedAsOnAFile() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.migration("0001_a.sql", "CREATE TABLE a(x UNIQUE);")
        try project.migration("0002_b.sql", "CREATE TABLE b(y);\nCREATE TABLE b(z);\nINSERT INTO a VALUES (1);")
        let schemaFailure = try project.remote(cluster, "app", ["migrate"])
        #expect(schemaFailure.status == 1, "\(schemaFailure)")
        #expect(schemaFailure.error == (try project.local("app.sqlite", ["migrate"])).error)
        #expect(schemaFailure.error.contains("migrations/0002_b.sql:3:14: error: table b already exists"))
        try project.migration("0002_b.sql", "CREATE TABLE b(y);\nCREATE INDEX by ON b(y);\nINSERT INTO a VALUES (1), (1);")
        let rowFailure = try project.remote(cluster, "app", ["migrate"])
        #expect(rowFailure.error == (try project.local("app.sqlite", ["migrate"])).error)
        #expect(rowFailure.error.contains("migrations/0002_b.sql:4:1: error: UNIQUE constraint failed: a.x"))
        let names = "SELECT name FROM sqlite_schema ORDER BY name"
        #expect(
            try project.remote(cluster, "app", ["query", names, "--mode", "list"]).output
                == "a\ncellar_migrations\nsqlite_autoindex_a_1\n")
        try project.migration(
            "0002_b.sql",
            "CREATE TABLE b(y);\nCREATE INDEX by ON b(y);\nINSERT INTO a VALUES (1), (2);\nCREATE TABLE e(q)\n-- the end")
        #expect(try project.remote(cluster, "app", ["migrate"]).status == 0)
        #expect(try project.local("app.sqlite", ["migrate"]).status == 0)
        #expect(try project.remote(cluster, "app", ["schema"]).output == project.local("app.sqlite", ["schema"]).output)
        #expect(try project.remote(cluster, "app", ["query", "SELECT count(*) FROM a", "--mode", "list"]).output == "2\n")
    }

    @Test func aLedgerRowThatCannotBeWrittenLeavesItsMigrationUncommitted() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.migration(
            "0001_a.sql",
            """
            CREATE TRIGGER closed BEFORE INSERT ON cellar_migrations WHEN NEW.version = 2
            BEGIN SELECT RAISE(ABORT, 'the ledger is closed'); END;
            """)
        try project.migration("0002_b.sql", "CREATE TABLE b(y);")
        let remote = try project.remote(cluster, "app", ["migrate"])
        let local = try project.local("app.sqlite", ["migrate"])
        #expect(remote.status == 1, "\(remote)")
        #expect(remote.error == local.error)
        #expect(remote.error.contains("the ledger is closed"))
        let tables =
            "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name; SELECT max(version) FROM cellar_migrations"
        #expect(try project.remote(cluster, "app", ["query", tables, "--mode", "list"]).output == "cellar_migrations\n1\n")
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

    @Test func rollbackBaselineAndAcceptMatchALocalFile() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        for name in ["a", "b", "c"] {
            let version = ["a": 1, "b": 2, "c": 3][name]!
            try project.migration("000\(version)_\(name).sql", "CREATE TABLE \(name)(x);", down: "DROP TABLE \(name);")
        }
        let steps: [[String]] = [
            ["migrate"], ["rollback"], ["rollback", "--to", "0"], ["rollback"], ["baseline", "2"], ["migrate"],
            ["rollback", "--steps", "2"], ["accept", "1"],
        ]
        for step in steps {
            let remote = try project.remote(cluster, "app", step)
            let local = try project.local("app.sqlite", step)
            #expect(remote.status == local.status, "\(step): \(remote)")
            #expect(timeless(remote.output) == timeless(local.output), "\(step)")
            #expect(remote.error == local.error, "\(step)")
            #expect(try project.remote(cluster, "app", ["schema"]).output == project.local("app.sqlite", ["schema"]).output)
        }
        try project.migration("0001_a.sql", "-- a harmless comment\nCREATE TABLE a(x);", down: "DROP TABLE a;")
        let accepted = try project.remote(cluster, "app", ["accept", "1"])
        #expect(accepted.output == "accepted the current checksum of 0001_a\n", "\(accepted)")
        #expect(try project.remote(cluster, "app", ["verify"]).status == 0)
    }

    /// A database dbmate migrated to version 2, on a cluster and in a file: migrate refuses it naming
    /// `cellar adopt`, adopt records 1 and 2 without running them (the log's primary key would fail a
    /// second run), migrate applies only 3, and redo rolls 3 back and applies it again; every step prints
    /// what it prints on the file, and the cluster ends with the file's rows.
    @Test func adoptAndRedoMatchALocalFile() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.migration("0001_a.sql", "CREATE TABLE a(x);\nINSERT INTO log VALUES (1);", down: "DROP TABLE a;")
        try project.migration("0002_b.sql", "CREATE TABLE b(x);\nINSERT INTO log VALUES (2);", down: "DROP TABLE b;")
        try project.migration(
            "0003_c.sql", "CREATE TABLE c(x);\nINSERT INTO log VALUES (3);", down: "DROP TABLE c;\nDELETE FROM log WHERE n = 3;")
        // What dbmate leaves after applying 0001 and 0002.
        let dbmate = """
            CREATE TABLE log (n INTEGER PRIMARY KEY);
            CREATE TABLE schema_migrations (version VARCHAR(128) PRIMARY KEY);
            CREATE TABLE a(x); INSERT INTO log VALUES (1); CREATE TABLE b(x); INSERT INTO log VALUES (2);
            INSERT INTO schema_migrations VALUES ('1'), ('2');
            """
        try project.folder.write("dbmate.sql", dbmate)
        #expect(try project.remote(cluster, "app", ["run", "dbmate.sql"]).status == 0)
        #expect(try project.local("app.sqlite", ["run", "dbmate.sql"]).status == 0)
        let url = cluster.url("app")
        let steps: [([String], Int32)] = [(["migrate"], 1), (["adopt"], 0), (["migrate"], 0), (["redo"], 0), (["status"], 0)]
        for (step, status) in steps {
            let remote = try project.remote(cluster, "app", step)
            let local = try project.local("app.sqlite", step)
            #expect(remote.status == status && local.status == status, "\(step): \(remote) \(local)")
            // The database's name (status says it) aside.
            let file = project.folder.file("app.sqlite")
            #expect(
                timeless(remote.output).replacing(url, with: "DB") == timeless(local.output).replacing(file, with: "DB"),
                "\(step): \(remote) \(local)")
            #expect(
                remote.error.replacing(url, with: "DB") == local.error.replacing(file, with: "DB"), "\(step): \(remote) \(local)")
        }
        let log = try project.remote(cluster, "app", ["query", "SELECT group_concat(n) FROM log", "--mode", "list"])
        #expect(log.output == "1,2,3\n", "\(log)")
        let kinds = try project.remote(
            cluster, "app", ["query", "SELECT group_concat(kind) FROM cellar_migrations ORDER BY version", "--mode", "list"])
        #expect(kinds.output.hasPrefix("adopted,adopted,"), "\(kinds)")
    }

    @Test func newOrphansInAWithoutRowidTableAreToldFromOldOnesByTheirKeyAsLocally() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.migration(
            "0001_schema.sql",
            """
            CREATE TABLE regions (code TEXT PRIMARY KEY);
            CREATE TABLE wines (region TEXT, name TEXT, code TEXT REFERENCES regions (code), PRIMARY KEY (region, name)) WITHOUT ROWID;
            INSERT INTO regions VALUES ('napa');
            """)
        try project.migration("0002_orphans.sql", "INSERT INTO wines VALUES ('fr', 'Margaux', 'bordeaux');")
        let orphan = "PRAGMA foreign_keys = OFF; INSERT INTO wines VALUES ('us', 'old orphan', 'gone')"
        for step in [["migrate", "--to", "1"], ["query", orphan], ["migrate"]] {
            let remote = try project.remote(cluster, "app", step)
            let local = try project.local("app.sqlite", step)
            #expect(remote.status == local.status && remote.error == local.error, "\(step): \(remote) \(local)")
        }
        let failed = try project.remote(cluster, "app", ["migrate"])
        #expect(failed.status == 1)
        #expect(failed.error.contains("wines (region, name) = ('fr', 'Margaux') has no parent row in regions"), "\(failed)")
        #expect(!failed.error.contains("old orphan"))
        try project.migration("0002_orphans.sql", "INSERT INTO wines VALUES ('us', 'Monte Bello', 'napa');")
        let warned = try project.remote(cluster, "app", ["migrate"])
        #expect(warned.status == 0 && warned.output.hasSuffix("now at version 2\n"), "\(warned)")
        #expect(warned.error.contains("('us', 'old orphan')"), "\(warned)")
    }

    /// A cluster leaves `foreign_key_check` out while no table declares a foreign key: a key added in
    /// lower case by `ALTER TABLE`, and one a later migration violates without naming it, still fail.
    @Test func foreignKeysAddedLaterAreCheckedAsLocally() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.migration(
            "0001_plain.sql",
            "CREATE TABLE regions (code TEXT PRIMARY KEY);\nCREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT);\n"
                + "INSERT INTO regions VALUES ('napa');")
        let key = "ALTER TABLE wines ADD COLUMN region TEXT references regions (code);"
        try project.migration("0002_key.sql", key + "\nINSERT INTO wines (name, region) VALUES ('Margaux', 'bordeaux');")
        try project.migration("0003_orphan.sql", "DELETE FROM regions;")
        var results: [(step: String, remote: ChildProcess.Result, local: ChildProcess.Result)] = []
        for step in ["migrate --to 1", "migrate --to 2", "fix 0002", "migrate --to 2", "migrate"] {
            if step == "fix 0002" {
                try project.migration("0002_key.sql", key + "\nINSERT INTO wines (name, region) VALUES ('Monte Bello', 'napa');")
                continue
            }
            let arguments = step.split(separator: " ").map(String.init)
            results.append((step, try project.remote(cluster, "app", arguments), try project.local("app.sqlite", arguments)))
        }
        for (step, remote, local) in results {
            #expect(remote.status == local.status && remote.error == local.error, "\(step): \(remote) \(local)")
        }
        #expect(results.map(\.remote.status) == [0, 1, 0, 1], "\(results.map(\.remote))")
        #expect(results[1].remote.error.contains("no parent row in regions"), "\(results[1].remote)")
        #expect(results[3].remote.error.contains("no parent row in regions"), "\(results[3].remote)")
        #expect(try project.remote(cluster, "app", ["query", "SELECT count(*) FROM regions"]).output == "1\n")
    }

    /// A server sends SQLite's message without its offset; cellar finds the token as a file's engine
    /// names it, in `migrate` (after the migration's own earlier statements), `run` and `query`.
    @Test func errorsFoundWhilePreparingAreLocatedAtTheirTokenAsOnAFile() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.migration("0001_a.sql", "CREATE TABLE a(x);")
        try project.migration("0002_b.sql", "CREATE TABLE b(y);\nINSERT INTO b SELECT nope FROM a;")
        try project.folder.write("script.sql", "INSERT INTO a VALUES (1);\n\n  SELECT x, y FROM a;\n")
        let steps = [
            ["migrate"], ["run", "script.sql"], ["query", "SELECT 1;\nSELECT x FROM a JOIN missing"],
            ["query", "SELECT x FROM a WHERE x = 1 AND ghost(x)"],
        ]
        for step in steps {
            let remote = try project.remote(cluster, "app", step)
            let local = try project.local("app.sqlite", step)
            #expect(remote.status == 1 && remote.error == local.error, "\(step): \(remote) \(local)")
        }
        let migrate = try project.remote(cluster, "app", ["migrate"])
        #expect(migrate.error.contains("0002_b.sql:3:22: error: no such column: nope"), "\(migrate)")
        let run = try project.remote(cluster, "app", ["run", "script.sql"])
        #expect(run.error.contains("script.sql:3:13: error: no such column: y"), "\(run)")
        #expect(try project.remote(cluster, "app", ["query", "SELECT count(*) FROM a"]).output == "0\n")
    }

    /// No copy can be made of a cluster's database, so a dry run rehearses on it inside one
    /// transaction that is rolled back: the same report as on a file, and nothing changed.
    @Test func aDryRunReportsAsOnAFileAndChangesNothing() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(3)
        for arguments in [["migrate", "--to", "1"], ["migrate", "--dry-run"]] {
            let remote = try project.remote(cluster, "app", arguments)
            let local = try project.local("app.sqlite", arguments)
            #expect(remote.status == 0 && timeless(remote.output) == timeless(local.output), "\(remote) \(local)")
        }
        let dryRun = try project.remote(cluster, "app", ["migrate", "--dry-run"])
        #expect(dryRun.output.contains("0002_t2: 4 statements, 3 rows changed, created index t2_note, table t2, "), "\(dryRun)")
        #expect(dryRun.output.contains("dry run: would apply 2 migrations ("), "\(dryRun)")
        let versions = try project.remote(
            cluster, "app", ["query", "SELECT version FROM runs; SELECT version FROM cellar_migrations"])
        #expect(versions.output == "1\n1\n", "\(versions)")
        #expect(try project.remote(cluster, "app", ["schema"]).output == project.local("app.sqlite", ["schema"]).output)
        try project.migration("0003_t3.sql", "INSERT INTO runs VALUES (3);\nINSERT INTO missing VALUES (1);")
        let failed = try project.remote(cluster, "app", ["migrate", "--dry-run"])
        let failedLocally = try project.local("app.sqlite", ["migrate", "--dry-run"])
        #expect(failed.status == 1 && failed.error == failedLocally.error, "\(failed) \(failedLocally)")
        #expect(failed.error.hasSuffix("dry run: migration 0003 rolled back; the database was not changed\n"), "\(failed)")
        try project.folder.write("migrations/0004_vacuum.sql", "-- migrate:up transaction:false\nVACUUM;\n")
        let refused = try project.remote(cluster, "app", ["migrate", "--dry-run", "--to", "2"])
        #expect(refused.status == 0, "\(refused)")
        let nonTransactional = try project.remote(cluster, "app", ["migrate", "--dry-run"])
        #expect(nonTransactional.status == 1)
        #expect(
            nonTransactional.error.contains("0004_vacuum.sql: error: runs with transaction:false, so migrate --dry-run cannot "),
            "\(nonTransactional)")
        #expect(try project.remote(cluster, "app", ["status"]).output.contains("database \(cluster.url("app")) at version 1"))
    }

    @Test func seedsRunInSetupAndSeedAsOnAFile() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(2)
        try project.folder.write("seeds/01_regions.sql", "INSERT INTO runs VALUES (100);\n")
        try project.folder.write("seeds/02_more.sql", "INSERT OR REPLACE INTO runs VALUES (101);\n")
        let steps: [[String]] = [["setup"], ["setup"], ["seed", "seeds/02_more.sql", "--force"]]
        for step in steps {
            let remote = try project.remote(cluster, "app", step)
            let local = try project.local("app.sqlite", step)
            #expect(remote.status == local.status && remote.error == local.error, "\(step): \(remote)")
            let localOutput = local.output.replacing(project.folder.file("app.sqlite"), with: "URL")
            let remoteOutput = remote.output.replacing(cluster.url("app"), with: "URL")
            #expect(timeless(remoteOutput) == timeless(localOutput), "\(step): \(remote)")
        }
        let runs = try project.remote(cluster, "app", ["query", "SELECT group_concat(version) FROM runs", "--mode", "list"])
        #expect(runs.output == "1,2,100,101\n", "\(runs)")
        let status = try project.remote(cluster, "app", ["status"])
        #expect(status.output.contains("seeds:\n  applied  01_regions.sql  "), "\(status)")
        try project.folder.write("seeds/03_file.sql", "INSERT INTO runs VALUES (length(readfile('x')));\n")
        let refused = try project.remote(cluster, "app", ["seed", "seeds/03_file.sql"])
        #expect(refused.status == 1)
        #expect(refused.error.contains("03_file.sql:1:33: error: readfile() is not available on a dqlite database"), "\(refused)")
    }

    @Test(arguments: [
        ["SELECT ?1, :a, ?1 || '?:x', typeof(:a)", "--param", "x", "--param", ":a=2.5"],
        [
            "SELECT version FROM runs WHERE version > :low AND version <= $high ORDER BY version", "--param", ":low=1", "--param",
            "$high=3",
        ],
        ["SELECT count(*) FROM runs WHERE version > @missing"],
        ["SELECT ?1 * 2, typeof(?1)", "--param", "7"],
    ])
    func queryBindsParametersByNameAndNumberAsOnAFile(arguments: [String]) throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(3)
        #expect(try project.remote(cluster, "app", ["migrate"]).status == 0)
        #expect(try project.local("app.sqlite", ["migrate"]).status == 0)
        let remote = try project.remote(cluster, "app", ["query"] + arguments + ["--mode", "list"])
        let local = try project.local("app.sqlite", ["query"] + arguments + ["--mode", "list"])
        #expect(remote.status == local.status && remote.output == local.output && remote.error == local.error, "\(remote)")
        #expect(!remote.output.isEmpty || remote.error.contains("no value for parameter @missing"), "\(remote)")
    }

    @Test func runRendersRowsAndRollsBackAFailingScriptAsOnAFile() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.folder.write("good.sql", "CREATE TABLE t(i);\nINSERT INTO t VALUES (1), (2);\nSELECT sum(i), 'x' FROM t;\n")
        try project.folder.write("bad.sql", "INSERT INTO t VALUES (3);\nSELECT * FROM nowhere;\n")
        #expect(try project.local("app.sqlite", ["create"]).status == 0)
        for step in [["run", "good.sql"], ["run", "bad.sql"], ["query", "SELECT count(*) FROM t"]] {
            let remote = try project.remote(cluster, "app", step)
            let local = try project.local("app.sqlite", step)
            #expect(remote.status == local.status && remote.output == local.output, "\(step): \(remote)")
            #expect(remote.error == local.error, "\(step): \(remote)")
        }
        let count = try project.remote(cluster, "app", ["query", "SELECT count(*) FROM t", "--mode", "list"])
        #expect(count.output == "2\n", "\(count)")
    }

    @Test func dumpWritesTheSameSQLAsOnAFile() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(3)
        try project.migration(
            "0004_values.sql", "CREATE TABLE v(a, b, c);\nINSERT INTO v VALUES (1.5, x'00ff', NULL), ('it''s', -7, 1e300);")
        for step in [["migrate"], ["dump", "runs", "t%", "v"], ["dump", "--data-only", "v"], ["dump", "nothing"]] {
            let remote = try project.remote(cluster, "app", step)
            let local = try project.local("app.sqlite", step)
            #expect(remote.status == local.status && remote.error == local.error, "\(step): \(remote)")
            #expect(timeless(remote.output) == timeless(local.output), "\(step): \(remote)")
        }
        let whole = try project.remote(cluster, "app", ["dump"])
        #expect(whole.status == 0 && whole.output.hasPrefix("PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n"), "\(whole)")
        #expect(whole.output.contains("INSERT INTO v VALUES(1.5,X'00ff',NULL);") && whole.output.hasSuffix("COMMIT;\n"))
    }

    /// `output` with durations (`in 12 ms;`, `in 1.20 s;`) replaced, for comparing two runs.
    /// `output` with its durations and ledger times left out: two runs a moment apart may straddle a
    /// second.
    private func timeless(_ output: String) -> String {
        output.replacing(#/[0-9.]+ m?s\b/#, with: "T").replacing(#/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/#, with: "TIME")
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
        (["--load-extension", "x.so", "status"], "--load-extension cannot load into a dqlite database"),
        (["shell", "--safe"], "shell --safe is not available on a dqlite database"),
        (["query", "SELECT 1", "--safe"], "query --safe is not available on a dqlite database"),
        (["run", "-", "--safe"], "run --safe is not available on a dqlite database"),
        (["migrate", "--backup"], "'backup' needs SQLite's online backup API"),
    ])
    func whatARemoteDatabaseCannotDoIsAClearError(arguments: [String], message: String) throws {
        let project = DqliteProject()
        try project.loggedMigrations(2)
        let result = try project.cellar(["-d", "dqlite://127.0.0.1:1/app"] + arguments)
        #expect(result.status == 1)
        #expect(result.error.contains(message), "\(result)")
    }
}
