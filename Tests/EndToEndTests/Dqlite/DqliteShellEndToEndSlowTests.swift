import Glibc
import TestSupport
import Testing

/// `cellar shell` on a real 3-node dqlite cluster: the same output as on a file for SQL and the
/// dot-commands that read the schema or change settings; a clear error for those that need a file.
@Suite(.serialized, .enabled(if: DqliteCluster.unavailableReason == nil, "\(DqliteCluster.unavailableReason ?? "")"))
struct DqliteShellEndToEndSlowTests {
    /// SQL in every mode, settings, errors, a transaction across lines, schema commands, `.read`,
    /// `.output`/`.once`, `.dump`, `.import` and `.bail`: what a piped shell writes, beside a file's.
    static let script = """
        CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c BLOB, d REAL);
        INSERT INTO t(b, c, d) VALUES ('x', x'00ff', 1.5), ('it''s', NULL, 1e300), (NULL, x'89504e47', -0.0);
        .headers on
        SELECT * FROM t; SELECT 1, 'two';
        .nullvalue NULL
        .mode line
        SELECT * FROM t;
        .mode json
        SELECT * FROM t;
        .mode jsonl
        SELECT * FROM t;
        .mode csv
        SELECT * FROM t;
        .mode tsv
        SELECT * FROM t;
        .mode quote
        SELECT * FROM t;
        .mode insert tt
        SELECT * FROM t;
        .mode markdown
        SELECT * FROM t;
        .mode table
        SELECT * FROM t;
        .width 3 -6
        .mode box
        SELECT * FROM t;
        .width
        .separator ; ~
        .mode list
        SELECT * FROM t;
        .separator |
        .changes on
        BEGIN;
        INSERT INTO t(b) VALUES ('in a transaction');
        UPDATE t SET d = 2
         WHERE a = 1;
        COMMIT;
        DELETE FROM t WHERE a = 4;
        .changes off
        SELECT * FROM nowhere;
        SELECT a,
          nope FROM t;
        SELECT 1 +;
        SELECT 'after'; SELECT * FROM missing; SELECT 'skipped';
        .print hello "world"
        CREATE INDEX tb ON t(b);
        CREATE VIEW v AS SELECT b FROM t;
        .tables
        .indexes t
        .schema t
        .fullschema
        .parameter set :x 42
        SELECT :x, typeof(:x); SELECT nope FROM t WHERE a = :x;
        .eqp on
        SELECT * FROM t WHERE b = 'x';
        .eqp off
        .lint fkey-indexes
        .read more.sql
        .once once.txt
        SELECT 'to the once file';
        SELECT 'back on standard output';
        .output out.txt
        SELECT 'to the output file';
        .output
        .dump t
        .import --csv wines.csv wine
        .import --csv short.csv wine
        SELECT name, year, typeof(year) FROM wine;
        .maxrows 2
        .mode box
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 10) SELECT i FROM c;
        .maxrows all
        .head off
        .bail on
        SELECT * FROM gone;
        SELECT 'not reached';

        """

    @Test func pipedInputWritesWhatItWritesOnAFile() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.folder.write("more.sql", "SELECT 'read', count(*) FROM t;\n")
        try project.folder.write("wines.csv", "name,year\nRioja,2019\n\"Ch, teau\",\n")
        try project.folder.write("short.csv", "Barolo,2015\nBrunello\n")
        let local = try project.local("app.sqlite", ["shell"], input: Self.script)
        let localFiles = try ["once.txt", "out.txt"].map { try FileBytes.readText(project.folder.file($0)) }
        let remote = try project.remote(cluster, "app", ["shell"], input: Self.script)
        let remoteFiles = try ["once.txt", "out.txt"].map { try FileBytes.readText(project.folder.file($0)) }
        #expect(remote.status == 1 && local.status == 1, "\(remote)")
        #expect(remote.output == local.output, "\(remote)")
        #expect(remote.error == local.error, "\(remote)")
        #expect(
            remoteFiles == localFiles
                && remoteFiles == ["'to the once file'\nto the once file\n", "'to the output file'\nto the output file\n"])
        // What the comparison rests on: rows in every mode, a located error, the transaction's changes.
        #expect(remote.output.contains("│   1 │      x │ <blob 2 B> │      1.5 │\n│   2 │   it's │ NULL  "), "\(remote)")
        #expect(remote.output.contains("changes: 1   total_changes: 4\nchanges: 1   total_changes: 5\n"), "\(remote)")
        #expect(remote.output.contains("changes: 1   total_changes: 6\n"), "\(remote)")
        #expect(remote.error.contains("<stdin>:42:3: error: no such column: nope"), "\(remote)")
        #expect(remote.error.contains("<stdin>:44:17: error: no such table: missing"), "\(remote)")
        #expect(remote.error.contains("<stdin>:53:31: error: no such column: nope"), "\(remote)")
        #expect(remote.error.contains("short.csv:2:1: error: expected 2 fields but found 1; nothing was imported"))
        #expect(remote.output.contains("name|year|typeof(year)\nRioja|2019|text\nCh, teau||text\n"), "\(remote)")
        #expect(remote.error.hasSuffix("<stdin>:75:1: error: no such table: gone\n    75 | SELECT * FROM gone;\n       | ^\n"))
        #expect(!remote.output.contains("not reached") && !remote.output.contains("skipped"))
        let rows = try project.remote(cluster, "app", ["query", "SELECT a, b, d FROM t", "--mode", "list"])
        #expect(rows.output == "1|x|2.0\n2|it's|1.0e+300\n3||0.0\n", "\(rows)")
    }

    @Test func dotCommandsThatNeedAFileSayWhyAndTheRestDescribeTheCluster() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.loggedMigrations(2)
        #expect(try project.remote(cluster, "app", ["migrate"]).status == 0)
        let refused = [
            ".backup b.db", ".save b.db", ".restore b.db", ".blob get runs version 1 out.bin", ".load x.so",
            ".dbinfo", ".stats on", ".timeout 10",
        ]
        let input =
            refused.joined(separator: "\n") + "\n.databases\n.show\n.migrations\n.timer on\nSELECT 1;\n"
            + "INSERT INTO runs VALUES (9) RETURNING version;\n.timer off\nSELECT 'still', count(*) FROM runs;\n"
        let result = try project.remote(cluster, "app", ["shell"], input: input)
        let url = cluster.url("app")
        #expect(result.status == 1, "\(result)")
        let reasons = [
            "'.backup' needs SQLite's online backup API", "'.save' needs SQLite's online backup API",
            "'.restore' needs SQLite's online backup API", "'.blob' streams a blob with SQLite's incremental blob I/O",
            "'.load' cannot load into a dqlite database", "'.dbinfo' reads the database file's header",
            "'.stats' shows the counters of this process's SQLite", "'.timeout' cannot change the wait of a dqlite database",
        ]
        for (line, reason) in reasons.enumerated() {
            #expect(result.error.contains("<stdin>:\(line + 1):1: error: \(reason)"), "\(reason): \(result)")
        }
        #expect(result.error.split(separator: "(\(url))").count == reasons.count + 1, "\(result)")
        #expect(!FileBytes.exists(project.folder.file("b.db")) && !FileBytes.exists(project.folder.file("out.bin")))
        #expect(result.output.contains("main: \(url) r/w\n"), "\(result)")
        #expect(result.output.contains("    filename: \(url)\n"), "\(result)")
        #expect(result.output.contains("database \(url) at version 2"), "\(result)")
        #expect(result.output.contains("applied  0002 t2"), "\(result)")
        #expect(result.output.contains(#/\n1\nRun Time: real [0-9.]+ user [0-9.]+ sys [0-9.]+\n/#), "\(result)")
        // A write with RETURNING would not be replicated (the server runs it as a read): refused before it is sent.
        #expect(result.error.contains("<stdin>:14:1: error: RETURNING is not available on a dqlite database"), "\(result)")
        #expect(result.output.hasSuffix("\nstill|2\n"), "\(result)")
    }

    @Test func aTransactionLeftOpenByPipedInputIsRolledBackAsOnAFile() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        let input = "CREATE TABLE k(x);\nBEGIN;\nINSERT INTO k VALUES (1);\n"
        let remote = try project.remote(cluster, "app", ["shell"], input: input)
        let local = try project.local("app.sqlite", ["shell"], input: input)
        #expect(remote.status == local.status && remote.output == local.output && remote.error == local.error, "\(remote)")
        #expect(remote.error == "cellar: warning: the open transaction was rolled back\n", "\(remote)")
        let count = try project.remote(cluster, "app", ["query", "SELECT count(*) FROM k", "--mode", "list"])
        #expect(count.output == "0\n", "\(count)")
    }

    @Test func theURLMayBeTheShellsFileArgument() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        let result = try project.cellar(["shell", cluster.url("app")], input: "SELECT 'on the cluster';\n")
        #expect(result.status == 0 && result.output == "on the cluster\n", "\(result)")
        let safe = try project.cellar(["shell", cluster.url("app"), "--safe"], input: "SELECT 1;\n")
        #expect(safe.status == 1 && safe.error.contains("shell --safe is not available on a dqlite database"), "\(safe)")
    }

    @Test func aPersonAtATerminalQueriesCompletesAndInterruptsOnTheCluster() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        let setup = try project.remote(
            cluster, "app", ["shell"], input: "CREATE TABLE wine(id INTEGER PRIMARY KEY, name TEXT);\n")
        #expect(setup.status == 0, "\(setup)")
        let terminal = try TerminalSession(["-d", cluster.url("app"), "--busy-timeout", "30000", "shell"], in: project.folder)
        try terminal.waitFor("cellar>")
        try terminal.type("BEGIN;")
        try terminal.waitFor("cellar*>")
        try terminal.type("INSERT INTO wine(name) VALUES ('Rioja');")
        try terminal.waitFor("cellar*>", count: 2)
        try terminal.type("COMMIT;")
        try terminal.waitFor("cellar>", count: 2)
        // A savepoint outside a transaction opens one, and its release commits it, as on a file.
        try terminal.type("SAVEPOINT first;")
        try terminal.waitFor("cellar*>", count: 3)
        try terminal.type("RELEASE first;")
        try terminal.waitFor("cellar>", count: 3)
        // The table's name comes from the cluster's schema.
        try terminal.type("SELECT name FROM wi", enter: false)
        try terminal.press("Tab")
        try terminal.waitFor("SELECT name FROM wine")
        try terminal.type(";")
        try terminal.waitUntil("the row") { $0.contains("│ Rioja │\n└───────┘\ncellar>") }
        try terminal.type(".tables")
        try terminal.waitUntil("the table list") { $0.contains(".tables\nwine\ncellar>") }
        // Rows that never end: Ctrl-C stops reading them (pressed again until the statement runs).
        try terminal.type("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT i FROM c;")
        var interrupted = false
        for _ in 0..<20 where !interrupted {
            try terminal.press("C-c")
            interrupted = (try? terminal.waitFor("interrupted", timeout: 1)) != nil
        }
        #expect(interrupted)
        try terminal.waitFor("cellar>", count: 6)
        try terminal.type("SELECT count(*) AS wines FROM wine;")
        let screen = try terminal.waitUntil("the count") { $0.contains("│     1 │\n└───────┘\ncellar>") }
        #expect(!screen.contains("[exit"), "\(screen)")
    }

    /// Ctrl-C while a statement runs on the leader, before any reply: it was only noted until the
    /// statement's end (an INSERT then finished and stayed in the transaction); now the connection is
    /// dropped, so the statement fails as interrupted and the leader's transaction is rolled back.
    @Test func ctrlCInterruptsAStatementStillRunningOnTheLeader() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        let setup = try project.remote(cluster, "app", ["shell"], input: "CREATE TABLE counted(n);\n")
        #expect(setup.status == 0, "\(setup)")
        let terminal = try TerminalSession(["-d", cluster.url("app"), "--busy-timeout", "60000", "shell"], in: project.folder)
        try terminal.waitFor("cellar>")
        try terminal.type("BEGIN;")
        try terminal.waitFor("cellar*>")
        // One row to insert, many seconds of work on the leader before the reply.
        try terminal.type(
            "INSERT INTO counted SELECT count(*) FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c "
                + "WHERE i < 15000000) SELECT i FROM c);")
        usleep(1_000_000)
        try terminal.press("C-c")
        let screen = try terminal.waitFor("interrupted", timeout: 30)
        #expect(!screen.contains("[exit"), "\(screen)")
        try terminal.waitFor("the open transaction was rolled back", timeout: 30)
        try terminal.type("SELECT count(*) AS rows FROM counted;")
        let after = try terminal.waitUntil(timeout: 120, "the count") { $0.contains("│    0 │\n└──────┘\ncellar>") }
        #expect(!after.contains("cellar*>\n"), "\(after)")
    }

    @Test func leavingThePagerStopsRowsThatNeverEnd() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        let terminal = try TerminalSession(
            ["-d", cluster.url("app"), "--busy-timeout", "30000", "shell"], in: project.folder,
            environment: ["PAGER": "less"], columns: 100, rows: 20)
        try terminal.waitFor("cellar>")
        try terminal.type(".mode list")
        try terminal.type(".maxrows all")
        try terminal.type(".pager on")
        try terminal.type("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c) SELECT i FROM c;")
        try terminal.waitUntil("less showing the first rows") { $0.hasPrefix("1\n2\n3\n") }
        try terminal.press("q")
        try terminal.waitFor("cellar>")
        try terminal.type("SELECT 'after';")
        let screen = try terminal.waitFor("after\ncellar>")
        #expect(!screen.contains("[exit") && !screen.contains("error"), "\(screen)")
    }

    @Test func aShellWhoseLeaderDiesFindsTheNewOneAndGoesOn() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        let shell = try Cellar.start(
            ["-d", cluster.url("app"), "--busy-timeout", "30000", "shell"], in: project.folder.path, pipesInput: true)
        try shell.feed(Array("CREATE TABLE k(x);\nINSERT INTO k VALUES (1);\nSELECT 'ready';\n".utf8))
        try Poll.until("the shell to print ready", timeout: 60) { shell.outputSoFar().contains("ready\n") }
        cluster.kill(try cluster.leaderIndex())
        try shell.feed(Array("SELECT 'lost', count(*) FROM k;\nSELECT 'found', count(*) FROM k;\n".utf8))
        shell.closeInput()
        let result = try shell.wait(timeout: 90)
        #expect(result.status == 1 && !result.timedOut, "\(result)")
        #expect(!result.output.contains("lost|") && result.output.hasSuffix("found|1\n"), "\(result)")
        #expect(result.error.contains("<stdin>:4:1: error: "), "\(result)")
        #expect(result.error.contains("cellar: warning: lost the dqlite leader; 127.0.0.1:"), "\(result)")
        #expect(result.error.contains(" leads now. An open transaction was rolled back"), "\(result)")
    }
}
