import CellarKit
import Glibc
import TestSupport
import Testing

@testable import CellarCLI

/// `.eqp`, `.stats`, `.timeout`, `.fullschema`, `.dbinfo`, `.lint fkey-indexes`, `.shell`/`.system`, the
/// `--safe` refusals and `.help`, compared with the sqlite3 CLI where it has the command.
@Suite struct ShellInspectionCommandsTests {
    let folder = TemporaryDirectory()
    var databasePath: String { folder.file("w.db") }

    init() throws {
        try Database(path: folder.file("w.db")).execute(
            """
            CREATE TABLE winery (id INTEGER PRIMARY KEY, name TEXT UNIQUE, region TEXT);
            CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT, winery_id INTEGER REFERENCES winery(id),
                winery_name TEXT REFERENCES winery(name), grape_id INTEGER REFERENCES grape);
            CREATE TABLE grape (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE pairing (wine_id INTEGER REFERENCES wine(id), dish TEXT);
            CREATE INDEX pairing_wine ON pairing(wine_id, dish);
            CREATE VIEW named AS SELECT name FROM wine;
            CREATE TRIGGER wine_named AFTER INSERT ON wine BEGIN SELECT 1; END;
            INSERT INTO winery VALUES (1, 'Ridge', 'CA'), (2, 'Tondonia', 'Rioja');
            INSERT INTO wine VALUES (1, 'Monte Bello', 1, 'Ridge', NULL), (2, 'Bosconia', 2, 'Tondonia', NULL);
            """)
    }

    private func shell(_ input: String, _ extra: [String] = []) -> InProcessRun {
        InProcessRun(["shell", "-d", databasePath] + extra, input: input)
    }

    private func sqlite3(_ input: String) throws -> ChildProcess.Result {
        try Shell.run("/usr/bin/sqlite3", [databasePath], input: Array(input.utf8))
    }

    @Test(arguments: [
        ".eqp on\nSELECT * FROM wine WHERE id = 1;\n",
        ".eqp on\nSELECT w.name FROM wine w JOIN winery y ON y.id = w.winery_id WHERE y.region IN (SELECT region FROM winery "
            + "WHERE name LIKE 'R%') UNION SELECT name FROM grape ORDER BY 1;\n",
        ".eqp on\nCREATE TEMP TABLE t (x);\nINSERT INTO t SELECT id FROM wine;\n.eqp off\nSELECT count(*) FROM t;\n",
        ".timeout 1234\nPRAGMA busy_timeout;\n.timeout\nPRAGMA busy_timeout;\n",
        ".fullschema\n",
        "ANALYZE;\n.fullschema\n",
        ".lint fkey-indexes\n",
        ".system printf 'from sh\\n'\n.shell echo two words\n",
    ])
    func outputIsSQLite3s(input: String) throws {
        let ours = shell(input)
        #expect(ours.status == 0, "\(ours.error)")
        #expect(ours.output == (try sqlite3(input)).output)
    }

    @Test func statsShowSQLite3sCountersAfterEachStatement() throws {
        let run = shell(".stats on\nSELECT name FROM wine ORDER BY name;\n.stats off\nSELECT 1;\n")
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["Bosconia", "Monte Bello"])
        #expect(lines.last == "1")
        let theirs = try sqlite3(".stats on\nSELECT name FROM wine ORDER BY name;\n").output
        let labels = lines.dropFirst(2).dropLast().map { String($0.prefix(37)) }
        #expect(labels.count == 16)
        for label in labels { #expect(theirs.contains(label), "sqlite3 has no line \(label)") }
        #expect(lines.contains("Sort Operations:                     1"))
        #expect(lines.contains("Fullscan Steps:                      1"))
        #expect(lines.contains("Number of times run:                 1"))
    }

    @Test func dbinfoReadsTheHeaderAndCountsTheSchema() throws {
        try Database(path: databasePath).execute("PRAGMA user_version = 7; PRAGMA application_id = 99")
        let run = shell(".dbinfo\n")
        #expect(run.status == 0, "\(run.error)")
        let database = try Database(path: databasePath)
        for (line, value) in [
            ("database page size:  ", "PRAGMA page_size"), ("database page count: ", "PRAGMA page_count"),
            ("freelist page count: ", "PRAGMA freelist_count"), ("schema cookie:       ", "PRAGMA schema_version"),
            ("user version:        ", "PRAGMA user_version"), ("application id:      ", "PRAGMA application_id"),
            ("number of tables:    ", "SELECT count(*) FROM sqlite_schema WHERE type = 'table'"),
            ("number of indexes:   ", "SELECT count(*) FROM sqlite_schema WHERE type = 'index'"),
            ("number of triggers:  ", "SELECT count(*) FROM sqlite_schema WHERE type = 'trigger'"),
            ("number of views:     ", "SELECT count(*) FROM sqlite_schema WHERE type = 'view'"),
        ] {
            guard case .integer(let expected) = try database.scalar(value) else {
                Issue.record("no value for \(value)")
                continue
            }
            #expect(run.output.contains("\n\(line)\(expected)\n") || run.output.hasPrefix("\(line)\(expected)\n"), "\(line)")
        }
        #expect(run.output.contains("text encoding:       1 (utf8)\n"))
        let memory = InProcessRun(["shell", "-d", ":memory:"], input: ".dbinfo\n")
        #expect(memory.status == 1)
        #expect(memory.error.contains("this database has no file"))
    }

    @Test func aFailingSystemCommandIsAnErrorAndItsOutputFollowsDotOutput() throws {
        let failed = shell(".system exit 3\n")
        #expect(failed.status == 1)
        #expect(failed.error.contains("the command exited with status 3"))
        let file = folder.file("o.txt")
        let redirected = shell(".output \(file)\n.shell echo into the file\n.output\nSELECT 1;\n")
        #expect(redirected.output == "1\n")
        #expect(try FileBytes.readText(file) == "into the file\n")
        #expect(shell(".shell\n").error.contains("Usage: .shell CMD"))
        let piped = shell(".system yes | head -n 2\n")
        #expect(piped.status == 0, "SIGPIPE ends yes: \(piped.error)")
        #expect(piped.output == "y\ny\n")
    }

    @Test func loadOfAMissingLibraryIsAOneLineError() {
        let run = shell(".load \(folder.file("nope.so"))\n")
        #expect(run.status == 1)
        #expect(run.error.contains("cannot load extension"))
    }

    /// As sqlite3: a word that is not a boolean is taken as off with a warning, a timeout that is not
    /// a number as 0, and `.lint` without its sub-command lists them; none of them fails.
    @Test func argumentsSQLite3TakesLeniently() {
        let eqp = shell(".eqp maybe\nSELECT 1;\n")
        #expect(eqp.status == 0)
        #expect(eqp.output == "1\n")
        #expect(eqp.error.contains("'maybe' is not on or off; taken as off"))
        #expect(shell(".timeout soon\n").status == 0)
        let lint = shell(".lint\n")
        #expect(lint.status == 0)
        #expect(lint.error.contains("fkey-indexes"))
        #expect(shell(".stats sometimes\n").status == 0)
        let extra = shell(".stats on extra\n")
        #expect(extra.status == 1)
        #expect(extra.error.contains("Usage: .stats on|off"))
    }

    // MARK: - --safe

    @Test(arguments: [
        ".shell echo no", ".system echo no", ".load x.so", ".import a.csv t", ".once out.txt", ".backup b.db",
        ".restore b.db", ".save b.db", ".output o.txt", ".read r.sql", ".open o.db", ".blob get wine name 1 -",
    ])
    func safeModeRefuses(command: String) throws {
        let before = try DatabaseFingerprint.lines(of: databasePath)
        let run = InProcessRun(["shell", "--safe", "-d", databasePath], input: command + "\nSELECT 'still here';\n")
        #expect(run.status == 1)
        let name = command.split(separator: " ")[0]
        #expect(run.error.contains("\(name) is not allowed with --safe"), "\(run.error)")
        #expect(run.output == "still here\n")
        #expect(try DatabaseFingerprint.lines(of: databasePath) == before)
        #expect(try DirectoryListing.fileNames(in: folder.path) == ["w.db"])
    }

    @Test func safeModeAllowsTheCommandsThatStayInside() {
        let run = InProcessRun(
            ["shell", "--safe", "-d", databasePath],
            input: ".dump winery\n.print ok\n.eqp on\n.show\n.fullschema\n.lint fkey-indexes\n.dbinfo\n.timeout 10\n")
        #expect(run.status == 0, "\(run.error)")
    }

    @Test func helpListsEveryCommand() {
        let help = shell(".help\n").output
        for entry in DotCommandCatalog.entries {
            #expect(help.contains("\n.\(entry.name)") || help.hasPrefix(".\(entry.name)"), "\(entry.name)")
        }
        for name in [
            "dump", "import", "once", "backup", "restore", "save", "separator", "width", "print", "echo", "prompt",
            "shell", "system", "load", "eqp", "show", "timeout", "fullschema", "dbinfo", "lint", "stats",
        ] {
            #expect(DotCommandCatalog.resolve(name) == .command(name))
        }
    }
}
