import CellarKit
import Glibc
import TestSupport
import Testing

@testable import CellarCLI

/// `.dump` and `.import` in the shell, compared with the sqlite3 CLI on the same data, and round trips
/// of tricky values.
@Suite struct ShellDumpImportTests {
    let folder = TemporaryDirectory()

    private func shell(_ database: String, _ input: String, _ extra: [String] = []) -> InProcessRun {
        InProcessRun(["shell", "-d", folder.file(database)] + extra, input: input)
    }

    private func sqlite3(_ database: String, _ input: String) throws -> ChildProcess.Result {
        try Shell.run("/usr/bin/sqlite3", [folder.file(database)], input: Array(input.utf8))
    }

    /// Quotes, separators inside fields, line breaks, NULL and the empty string, blobs and non-ASCII text.
    private func makeTrickyDatabase(_ name: String) throws {
        try Database(path: folder.file(name)).execute(
            """
            CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT, tag TEXT, data BLOB);
            INSERT INTO note VALUES (1, 'say "hi", it''s | fine', '', X'00FF10');
            INSERT INTO note VALUES (2, 'two
            lines', NULL, X'');
            INSERT INTO note VALUES (3, 'naïve café – 東京 🍷', 'x,y', NULL);
            CREATE INDEX note_tag ON note(tag);
            CREATE VIEW tagged AS SELECT id FROM note WHERE tag IS NOT NULL;
            """)
    }

    // MARK: - .dump

    @Test func dumpIsSQLite3sDump() throws {
        try makeTrickyDatabase("d.db")
        let ours = shell("d.db", ".dump\n")
        #expect(ours.status == 0, "\(ours.error)")
        let theirs = try sqlite3("d.db", ".dump\n")
        #expect(ours.output == theirs.output)
    }

    /// sqlite3 3.40 leaves a table's indexes out of `.dump TABLE` (not out of `.dump TAB%`); cellar's dump engine
    /// brings them (as `cellar dump TABLE` does), so the rest must be the same.
    @Test(arguments: [
        ("note", ["CREATE INDEX note_tag ON note(tag);"]), ("no%", ["CREATE INDEX note_tag ON note(tag);"]), ("tagged", []),
    ])
    func dumpOfAPatternIsSQLite3sWithTheTablesIndexes(pattern: String, added: [String]) throws {
        try makeTrickyDatabase("d.db")
        let ours = shell("d.db", ".dump \(pattern)\n")
        #expect(ours.status == 0, "\(ours.error)")
        let theirs = try sqlite3("d.db", ".dump \(pattern)\n").output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !added.contains(String($0)) }
        #expect(
            ours.output.split(separator: "\n", omittingEmptySubsequences: false).filter { !added.contains(String($0)) } == theirs)
        for line in added { #expect(ours.output.contains(line)) }
    }

    @Test func dumpRebuildsEveryValueThroughSQLite3AndThroughTheShell() throws {
        try makeTrickyDatabase("d.db")
        let dump = shell("d.db", ".dump\n")
        #expect(dump.status == 0)
        _ = try sqlite3("by-sqlite3.db", dump.output)
        let rebuilt = shell("by-cellar.db", dump.output)
        #expect(rebuilt.status == 0, "\(rebuilt.error)")
        let expected = try DatabaseFingerprint.lines(of: folder.file("d.db"))
        #expect(try DatabaseFingerprint.lines(of: folder.file("by-sqlite3.db")) == expected)
        #expect(try DatabaseFingerprint.lines(of: folder.file("by-cellar.db")) == expected)
    }

    @Test func dumpDataOnlyAndAPatternThatMatchesNothing() throws {
        try makeTrickyDatabase("d.db")
        let dataOnly = shell("d.db", ".dump --data-only note\n")
        #expect(dataOnly.output == (try sqlite3("d.db", ".dump --data-only note\n")).output)
        let none = shell("d.db", ".dump nothing_like_this\n")
        #expect(none.status == 1)
        #expect(none.error.contains("no table or view matches 'nothing_like_this'"))
    }

    // MARK: - .import compared with sqlite3

    /// RFC 4180 quoting, a BOM, CRLF and LF, embedded line breaks, separators and quotes in fields,
    /// non-ASCII text, a header with a blank and a quote in it.
    private static let trickyCSV =
        "\u{FEFF}name,\"note, long\",\"say \"\"it\"\"\",n\r\n"
        + "Red,\"a, b\",\"he said \"\"hi\"\"\",1\r\n"
        + "\"multi\nline\",\"x\r\ny\",plain,2\n"
        + "naïve,東京 🍷,'single',3\r\n"
        + "\"\",\"\",\"\",4\n"

    @Test func importCreatesTheTableAsSQLite3Does() throws {
        let csv = try folder.write("in.csv", Self.trickyCSV)
        let ours = shell("ours.db", ".import --csv \(csv) wine\n")
        #expect(ours.status == 0, "\(ours.error)")
        _ = try sqlite3("theirs.db", ".import --csv \(csv) wine\n")
        #expect(
            try DatabaseFingerprint.lines(of: folder.file("ours.db")) == DatabaseFingerprint.lines(of: folder.file("theirs.db")))
        #expect(try sqlite3("ours.db", ".schema\n").output.contains("CREATE TABLE IF NOT EXISTS \"wine\"(\n\"name\" TEXT"))
    }

    @Test func importIntoAnExistingTableSkippingTheHeaderAsSQLite3Does() throws {
        let csv = try folder.write("in.csv", Self.trickyCSV)
        let create = "CREATE TABLE wine (name TEXT, note TEXT, said TEXT, n INTEGER);\n"
        let ours = shell("ours.db", create + ".import --csv --skip 1 \(csv) wine\n")
        #expect(ours.status == 0, "\(ours.error)")
        _ = try sqlite3("theirs.db", create + ".import --csv --skip 1 \(csv) wine\n")
        let rows = try DatabaseFingerprint.lines(of: folder.file("ours.db"))
        #expect(rows == (try DatabaseFingerprint.lines(of: folder.file("theirs.db"))))
        #expect(rows.contains { $0.hasPrefix("wine: ") && $0.hasSuffix("int 4") }, "INTEGER affinity applies")
    }

    @Test func importSplitsOnTheSeparatorOutsideCSVModeAsSQLite3Does() throws {
        let file = try folder.write("in.txt", "a|b\n1|\"x|y\"\n2|z\n")
        let ours = shell("ours.db", ".import \(file) t\n")
        #expect(ours.status == 0, "\(ours.error)")
        _ = try sqlite3("theirs.db", ".import \(file) t\n")
        #expect(
            try DatabaseFingerprint.lines(of: folder.file("ours.db")) == DatabaseFingerprint.lines(of: folder.file("theirs.db")))
        let semicolons = try folder.write("in2.txt", "a;b\n1;2\n")
        let custom = shell("ours.db", ".separator ;\n.import \(semicolons) s\nSELECT a + b FROM s;\n")
        #expect(custom.output == "3\n", "\(custom.error)")
    }

    // MARK: - .import round trips and errors

    @Test func csvOutputImportsBackWithNullAndEmptyTold() throws {
        try makeTrickyDatabase("d.db")
        let csv = folder.file("out.csv")
        let export = shell("d.db", ".mode csv\n.headers on\n.once \(csv)\nSELECT id, body, tag FROM note ORDER BY id;\n")
        #expect(export.status == 0, "\(export.error)")
        let back = shell("back.db", ".import --csv \(csv) note\n")
        #expect(back.status == 0, "\(back.error)")
        let original = try Database(path: folder.file("d.db")).query("SELECT CAST(id AS TEXT), body, tag FROM note ORDER BY id")
        let imported = try Database(path: folder.file("back.db")).query("SELECT id, body, tag FROM note ORDER BY rowid")
        #expect(imported.map(\.values) == original.map(\.values))
        #expect(imported[1].values[2] == .null)
        #expect(imported[0].values[2] == .text(""))
    }

    @Test func theNullValueNamesNullUnquotedOnly() throws {
        let file = try folder.write("n.csv", "v,w\nNULL,\"NULL\"\n,\"\"\n")
        let run = shell("n.db", ".nullvalue NULL\n.import --csv \(file) t\n")
        #expect(run.status == 0, "\(run.error)")
        let rows = try Database(path: folder.file("n.db")).query("SELECT v, w FROM t ORDER BY rowid").map(\.values)
        #expect(rows == [[.null, .text("NULL")], [.text(""), .text("")]])
    }

    @Test(arguments: [
        ("a,b\n1,\"open\n2,3\n", "2:3", "this quoted field is never closed"),
        ("a,b\n1,\"x\"y\n", "2:6", "a character follows the closing quote"),
        ("a,b\n1,2\n3\n", "3:1", "expected 2 fields but found 1"),
        ("a,b\n1,2\n3,4,5\n", "3:1", "expected 2 fields but found 3"),
    ])
    func aMalformedRecordIsALocatedErrorAndNothingIsImported(csv: String, place: String, message: String) throws {
        try Database(path: folder.file("x.db")).execute("CREATE TABLE kept (v); INSERT INTO kept VALUES (1)")
        let before = try DatabaseFingerprint.lines(of: folder.file("x.db"))
        let file = try folder.write("bad.csv", csv)
        let run = shell("x.db", ".import --csv \(file) t\n")
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("\(file):\(place): error: "), "\(run.error)")
        #expect(run.error.contains(message))
        #expect(try DatabaseFingerprint.lines(of: folder.file("x.db")) == before)
    }

    @Test func aFailedImportInsideATransactionKeepsTheTransactionsWork() throws {
        let file = try folder.write("dup.csv", "id\n1\n1\n")
        let run = shell(
            "x.db",
            "CREATE TABLE t (id INTEGER PRIMARY KEY);\nBEGIN;\nINSERT INTO t VALUES (7);\n.import --csv --skip 1 \(file) t\nCOMMIT;\n"
        )
        #expect(run.status == 1)
        #expect(run.error.contains("dup.csv:3:1: error: UNIQUE constraint failed: t.id"), "\(run.error)")
        #expect(try Database(path: folder.file("x.db")).query("SELECT id FROM t").map(\.values) == [[.integer(7)]])
    }

    @Test func importOptionsAndAMissingFile() {
        #expect(shell("x.db", ".import only-one\n").error.contains("Usage: .import [--csv|--ascii] [--skip N] [--schema S] FILE"))
        #expect(shell("x.db", ".import --skip x a b\n").error.contains("--skip needs a whole number"))
        #expect(shell("x.db", ".import --bogus a b\n").error.contains("unknown option '--bogus'"))
        #expect(shell("x.db", ".import \(folder.file("none.csv")) t\n").error.contains("cannot read"))
        #expect(shell("x.db", ".separator ::\n.import \(folder.file("none.csv")) t\n").error.contains("one byte"))
    }

    @Test func theReaderStreamsAcrossItsBufferBoundary() throws {
        var csv = "k,v\n"
        for index in 0..<20_000 { csv += "\(index),\"value \(index) with \"\"quotes\"\"\nand a line\"\n" }
        let file = try folder.write("big.csv", csv)
        let run = shell("big.db", ".import --csv \(file) t\nSELECT count(*), sum(k), max(length(v)) FROM t;\n")
        #expect(run.output == "20000|199990000|36\n", "\(run.error)")
    }
}
