import CellarKit
import Glibc
import TestSupport
import Testing

@testable import CellarCLI

/// The same command line and input through sqlite3 3.40 and `cellar shell`, each on a fresh database
/// file: standard output byte for byte, and whether each failed. The differences cellar keeps on
/// purpose are in docs/shell/sqlite3-differences.md, not here.
@Suite struct SQLite3ComparisonTests {
    /// One comparison: the arguments (`DB` stands for the database file) and standard input.
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let input: String
        /// Files written into the test's folder first; `DIR/` in the input names that folder.
        let files: [String: String]
        /// Whether the exit status must be sqlite3's exactly (`.exit CODE`), not just agree on failure.
        let comparesStatus: Bool
        init(_ arguments: [String], _ input: String = "", files: [String: String] = [:], comparesStatus: Bool = false) {
            self.arguments = arguments
            self.input = input
            self.files = files
            self.comparesStatus = comparesStatus
        }
        var testDescription: String { (arguments + [input.debugDescription]).joined(separator: " ") }
    }

    static let table =
        "CREATE TABLE t(a INTEGER, b TEXT, c REAL);\nINSERT INTO t VALUES (1, 'x', 1.5), (22, NULL, -0.25), (3, 'a<b & \"c''d\"', 1e100);\n"

    static let commandLines: [Case] = [
        Case(["-header", "DB", "SELECT 1 AS one"]),
        Case(["-header", "-csv", "DB"], table + "SELECT * FROM t;\n"),
        Case(["--csv", "--header", "DB"], table + "SELECT * FROM t;\n"),
        Case(["DB", "CREATE TABLE t(a)", "INSERT INTO t VALUES (1), (2)", "SELECT sum(a) FROM t"]),
        Case(["DB", "SELECT 1; SELECT 2", ".print done"]),
        Case(["DB", "SELECT nope", "SELECT 1"]),
        Case(["DB", ".bogus", "SELECT 1"]),
        Case(["-separator", ";", "-newline", "@", "-nullvalue", "NIL", "DB", "SELECT 1, NULL, 'x'"]),
        Case(["-cmd", ".mode csv", "-cmd", ".headers on", "DB", "SELECT 1 AS a, 2 AS b"]),
        Case(["-cmd", "SELECT 5", "DB"], "SELECT 6;\n"),
        Case(["-bail", "DB"], "SELECT 1;\nSELECT nope;\nSELECT 2;\n"),
        Case(["-batch", "-list", "DB"], table + "SELECT * FROM t;\n"),
        Case(["-line", "DB", "SELECT 1 AS a, 'b' AS bee"]),
        Case(["-quote", "DB", "SELECT 1, 'it''s', NULL"]),
        Case(["-json", "DB", "SELECT 1 AS a, 'x' AS b"]),
        Case(["-markdown", "DB", "SELECT 1 AS a, 'x' AS b"]),
        Case(["-table", "DB", "SELECT 1 AS a, 'x' AS b"]),
        Case(["-readonly", "DB", "SELECT 1"]),
        Case(["-bogus", "DB"]),
    ]

    static let modes: [Case] = [
        Case(["DB"], table + ".mode column\nSELECT * FROM t;\n.headers off\nSELECT * FROM t;\n"),
        Case(["-column", "DB"], table + "SELECT a AS 'a long name', b FROM t;\nSELECT 1 WHERE 0;\n"),
        Case(["DB"], table + ".mode column\n.width 5 -12\nSELECT a, b FROM t;\n"),
        Case(["-html", "DB"], table + "SELECT * FROM t;\n.headers on\nSELECT * FROM t;\n"),
        Case(["DB"], table + ".mode tcl\nSELECT * FROM t;\n.headers on\nSELECT 'tab\there', 'nl\nx', 'back\\slash';\n"),
        Case(["-ascii", "DB"], table + "SELECT * FROM t;\n.headers on\nSELECT * FROM t;\n"),
        Case(["-tabs", "DB"], table + "SELECT * FROM t;\n.headers on\nSELECT * FROM t;\n"),
        Case(["DB"], ".mode tabs\n.show\n.mode ascii\n.show\n.mode tcl\n.show\n"),
    ]

    /// The defects of issue 25, each against sqlite3's output.
    static let fixes: [Case] = [
        Case(["DB"], "CREATE TABLE _(x);\nCREATE TABLE x(y);\n.schema '\\_'\n.schema \"\\_\"\n.schema X\n.schema x*\n"),
        Case(
            ["DB"],
            "CREATE TABLE ab(x);\nCREATE TABLE \"my t\"(x);\nCREATE VIEW v2 AS SELECT 1 AS y;\n"
                + "CREATE VIEW \"v 3\"(a,\"b c\", \"select\") AS SELECT 1,2,3 FROM ab;\nCREATE INDEX i1 ON ab(x);\n.schema\n.schema v%\n"
        ),
        Case(["DB"], ".print a\\vb\\a\\f\\b \"c\\vd\"\n"),
        Case(["DB"], ".show\n"),
        Case(["DB"], ".bail on BAD\n"), Case(["DB"], ".headers on BAD\n"), Case(["DB"], ".timer off BAD\n"),
        Case(["DB"], ".show BAD\n"), Case(["DB"], ".stats off BAD\n"), Case(["DB"], ".schema A B\n"),
        Case(["DB"], ".nullvalue\n"), Case(["DB"], ".indexes a b\n"), Case(["DB"], ".echo\n"),
        Case(["DB"], ".prompt\nSELECT 1;\n"), Case(["DB"], ".timeout zzz\nSELECT 1;\n"),
        Case(["DB"], ".width xxx\nSELECT 1;\n"), Case(["DB"], ".once\nSELECT 1;\n"), Case(["DB"], ".lint\n"),
        Case(["DB"], ".eqp maybe\nSELECT 1;\n"), Case(["DB"], ".headers 1\nSELECT 1 AS a;\n.headers 0x0\nSELECT 2;\n"),
        Case(["DB"], ".help zz\n"),
        // sqlite3's names for duplicate and empty header names, and its four-columns-a-line CREATE.
        Case(
            ["DB"], ".import --csv DIR/h.csv t\n.schema t\nSELECT * FROM t;\n",
            files: ["h.csv": "a,a,a,,,b,A\n1,2,3,4,5,6,7\n"]),
        Case(["DB"], ".import --csv DIR/h.csv t\n.schema t\n", files: ["h.csv": "x,a_1,a,a\n1,2,3,4\n"]),
        Case(
            ["DB"],
            "CREATE TABLE t(a);\n.trace stdout\nINSERT INTO t VALUES(1);\nSELECT * FROM t WHERE a = 1;;\n"
                + "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;\nINSERT INTO t VALUES(2);\n.trace off\nSELECT 2;\n"),
        // The parent key's collation, a partial index, a composite key's `p(b,c)`, the rowid.
        Case(
            ["DB"],
            "CREATE TABLE p(a TEXT COLLATE nocase, b, c, PRIMARY KEY(a), UNIQUE(b,c));\nCREATE TABLE x1(a, b, FOREIGN KEY(a,b) REFERENCES p(b,c));\nCREATE TABLE x2(a TEXT REFERENCES p);\nCREATE TABLE x3(a TEXT COLLATE nocase REFERENCES p);\nCREATE INDEX x3a ON x3(a);\nCREATE TABLE x4(a TEXT REFERENCES p);\nCREATE INDEX x4a ON x4(a);\nCREATE TABLE x5(z INTEGER REFERENCES p(b));\nCREATE INDEX x5z ON x5(z) WHERE z IS NOT 12;\nCREATE TABLE b0(id INTEGER PRIMARY KEY, q REFERENCES b0);\n.lint fkey-indexes\n"
        ),
    ]

    static let explainSchema =
        "CREATE TABLE t(a INTEGER PRIMARY KEY, b);\nCREATE TABLE u(x);\n"
        + "CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO u SELECT b FROM t WHERE b>new.b; END;\n"

    /// The items of issue 25 added after the defects: `.exit CODE`, `.explain`, `.eqp trigger|full`, …
    static let features: [Case] = [
        Case(["DB"], ".exit 3\nSELECT 9;\n", comparesStatus: true),
        Case(["DB"], ".exit abc\nSELECT 9;\n", comparesStatus: true),
        Case(["DB"], ".exit 3 4\n", comparesStatus: true), Case(["DB"], ".exit -1\n", comparesStatus: true),
        Case(["DB"], ".exit 300\n", comparesStatus: true), Case(["DB"], ".quit 3\nSELECT 9;\n", comparesStatus: true),
        Case(["DB"], "SELECT nope;\n.exit\n", comparesStatus: true),
        Case(["DB"], "SELECT nope;\n.exit 5\n", comparesStatus: true),
        Case(["DB", "SELECT 1", ".exit 4", "SELECT 2"], comparesStatus: true),
        Case(["DB"], ".read DIR/x.sql\nSELECT 2;\n", files: ["x.sql": "SELECT 1;\n.exit 6\nSELECT 3;\n"], comparesStatus: true),
        Case(["DB"], ".read DIR/x.sql\nSELECT 2;\n", files: ["x.sql": "SELECT 1;\n.quit\nSELECT 3;\n"]),
        // `.explain`: the listing of EXPLAIN (loops indented, a trigger's program after), the tree of
        // EXPLAIN QUERY PLAN, and on/off.
        Case(
            ["DB"],
            explainSchema + "EXPLAIN SELECT * FROM t, u WHERE x=b ORDER BY b;\n"
                + "EXPLAIN SELECT * FROM t WHERE b IN (SELECT x FROM u) AND a > (SELECT max(rowid) FROM u WHERE x = t.b);\n"
                + "EXPLAIN WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM c WHERE n<5) SELECT n FROM c;\n"
                + "EXPLAIN SELECT b, count(*) FROM t GROUP BY b HAVING count(*) > 1 ORDER BY 2 DESC LIMIT 3;\n"
                + "EXPLAIN INSERT INTO t VALUES(3,2);\nEXPLAIN QUERY PLAN SELECT * FROM t, u WHERE x=b;\n"),
        Case(
            ["DB"],
            explainSchema + ".explain on\nSELECT 1 AS a, NULL, 'long text here ok', 4,5,6,7,8,9,10;\n.show\n"
                + "EXPLAIN QUERY PLAN SELECT * FROM t;\nEXPLAIN SELECT 1;\n.explain off\nEXPLAIN SELECT 1;\n"
                + "EXPLAIN QUERY PLAN SELECT * FROM t;\n.explain\n.show\n.explain auto\n.show\n.explain bogus\n.show\n"),
        Case(["-csv", "DB"], explainSchema + "EXPLAIN SELECT 1;\n.explain on\nSELECT 1, 2;\n.explain 1 2\n"),
        // `.eqp`: on shows no trigger's plan, trigger does (its name in place of QUERY PLAN), full adds
        // the EXPLAIN listing; none for a statement that is an EXPLAIN.
        Case(
            ["DB"],
            explainSchema + ".eqp on\nINSERT INTO t VALUES(1,2);\n.eqp trigger\nINSERT INTO t VALUES(2,2);\nSELECT 1;\n"
                + "SELECT * FROM t ORDER BY b;\n.show\n.eqp full\nSELECT * FROM t, u WHERE x=b ORDER BY b;\n"
                + "INSERT INTO t VALUES(3,2);\nEXPLAIN SELECT 1;\nEXPLAIN QUERY PLAN SELECT 1;\n.show\n.eqp off\nSELECT 2;\n"),
        // `.dump --preserve-rowids --newlines --nosys`, alone, together and with patterns.
        Case(["DB"], dumpSchema + ".dump --preserve-rowids\n"), Case(["DB"], dumpSchema + ".dump --nosys\n"),
        Case(["DB"], dumpSchema + ".dump --newlines t%\n"),
        Case(["DB"], dumpSchema + ".dump --preserve-rowids --newlines --nosys t% a\n"),
        Case(["DB"], dumpSchema + ".dump --nosys --data-only\n"), Case(["DB"], dumpSchema + ".dump --preserve-rowids --bogus\n"),
        // `.import --ascii` (0x1F and 0x1E, no quoting), `--schema`, `'|COMMAND'`, the ascii mode's separators.
        Case(
            ["DB"],
            ".import --ascii DIR/a.txt t\nSELECT * FROM t;\n.schema\nATTACH ':memory:' AS aux;\n"
                + ".import --csv --schema aux DIR/c.csv u\n.import --csv --schema temp DIR/c.csv v\nSELECT * FROM aux.u;\n"
                + "SELECT * FROM temp.v;\n.import --csv --skip 1 --schema aux DIR/c.csv u\nSELECT count(*) FROM aux.u;\n"
                + ".import --csv '|printf \"m,n\\n5,6\\n\"' w\nSELECT * FROM w;\n.schema w\n.mode ascii\n.import DIR/a.txt t\n"
                + ".mode list\nSELECT count(*) FROM t;\n.import --csv --schema nope DIR/c.csv z\nSELECT 1;\n",
            files: ["a.txt": "a\u{1F}b\u{1E}1\u{1F}\"x,y\"\u{1E}2\u{1F}line\nbreak\u{1E}", "c.csv": "p,q\n1,2\n"]),
        Case(["DB"], ".import --csv '|exit 3' t\n.tables\n"),
    ]

    static let dumpSchema =
        "CREATE TABLE t(a, b);\nINSERT INTO t VALUES(1, 'x'||char(10)||'y'), (2, 'r'||char(13));\n"
        + "CREATE TABLE w(id INTEGER PRIMARY KEY, v);\nINSERT INTO w VALUES(5, 'q');\n"
        + "CREATE TABLE r(rowid, _rowid_, x);\nINSERT INTO r VALUES(1, 2, 3);\n"
        + "CREATE TABLE a(id INTEGER PRIMARY KEY AUTOINCREMENT, \"my col\");\nINSERT INTO a VALUES(3, 'z');\n"
        + "CREATE TABLE wr(k PRIMARY KEY, v) WITHOUT ROWID;\nINSERT INTO wr VALUES(1, 2);\n"
        + "CREATE TABLE d(id INTEGER PRIMARY KEY DESC, v);\nINSERT INTO d VALUES(9, 1);\n"
        + "CREATE INDEX ti ON t(b);\nANALYZE;\nCREATE TABLE g(a, b AS (a*2));\nINSERT INTO g(a) VALUES(4);\n"

    private func compare(_ testCase: Case) throws {
        let folder = TemporaryDirectory()
        let environment = ["HOME": folder.path]
        for (name, content) in testCase.files { try FileBytes.write(Array(content.utf8), to: folder.file(name)) }
        let input = testCase.input.replacing("DIR/", with: folder.path + "/")
        let reference = try Shell.run(
            "/usr/bin/sqlite3", testCase.arguments.map { $0 == "DB" ? folder.file("s.db") : $0 }, environment: environment,
            input: Array(input.utf8))
        let run = InProcessRun(
            ["shell"] + testCase.arguments.map { $0 == "DB" ? folder.file("c.db") : $0 }, input: input,
            environment: environment)
        let expected = reference.output.replacing(folder.file("s.db"), with: folder.file("c.db"))
        #expect(run.output == expected, "sqlite3: \(reference.error)\ncellar: \(run.error)")
        if testCase.comparesStatus {
            #expect(run.status == reference.status, "sqlite3: \(reference.error)\ncellar: \(run.error)")
        }
        #expect(
            (run.status == 0) == (reference.status == 0),
            "sqlite3 \(reference.status): \(reference.error)\ncellar \(run.status): \(run.error)")
    }

    @Test(arguments: commandLines) func commandLine(_ testCase: Case) throws { try compare(testCase) }

    @Test(arguments: modes) func mode(_ testCase: Case) throws { try compare(testCase) }

    @Test(arguments: fixes) func fix(_ testCase: Case) throws { try compare(testCase) }

    @Test(arguments: features) func feature(_ testCase: Case) throws { try compare(testCase) }

    /// `-header` once parsed as `-h` with letters after it: help, and exit 0 having run nothing.
    @Test func aFlagsLetterWithMoreAfterItIsNeverThatFlag() {
        let run = InProcessRun(["shell", "-hx"])
        #expect(run.status == 2)
        #expect(run.error.contains("unknown option '-hx'"))
        #expect(run.output.isEmpty)
    }
}
