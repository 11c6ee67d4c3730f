import CellarKit
import Glibc
import TestSupport
import Testing

@testable import CellarCLI

/// `.once`, `.separator`, `.width`, `.print`, `.echo`, `.prompt`, `.show`, `.backup`/`.save`/`.restore`
/// in the shell, compared with the sqlite3 CLI where it has the command.
@Suite struct ShellSettingsCommandsTests {
    let folder = TemporaryDirectory()
    var databasePath: String { folder.file("w.db") }

    init() throws {
        try Database(path: folder.file("w.db")).execute(
            """
            CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT, note TEXT);
            INSERT INTO wine VALUES (1, 'Red', 'a;b'), (2, 'Blanc', NULL), (3, 'Rosé', 'say "x"');
            """)
    }

    private func shell(_ input: String, _ extra: [String] = []) -> InProcessRun {
        InProcessRun(["shell", "-d", databasePath] + extra, input: input)
    }

    private func sqlite3(_ input: String, database: String? = nil) throws -> ChildProcess.Result {
        try Shell.run("/usr/bin/sqlite3", [database ?? databasePath], input: Array(input.utf8))
    }

    @Test(arguments: [
        ".separator ;\nSELECT * FROM wine;\n",
        ".separator ' :: ' '|\\n'\nSELECT * FROM wine;\n",
        ".separator \\t\n.headers on\nSELECT * FROM wine;\n",
        ".mode csv\n.separator ;\nSELECT * FROM wine;\n",
        ".separator ;\n.mode list\nSELECT * FROM wine;\n",
        ".print one 'two three' \"four\\tfive\"\n",
        ".echo on\nSELECT 1;\n.print x\n.echo off\nSELECT 2;\n",
        ".once \(OnceFile.placeholder)\nSELECT 1;\nSELECT 2;\n",
    ])
    func outputIsSQLite3s(input: String) throws {
        let script = input.replacing(OnceFile.placeholder, with: folder.file("once.txt"))
        let ours = shell(script)
        #expect(ours.status == 0, "\(ours.error)")
        let ourFile = FileBytes.exists(folder.file("once.txt")) ? try FileBytes.readText(folder.file("once.txt")) : ""
        unlink(folder.file("once.txt"))
        let theirs = try sqlite3(script)
        let theirFile = FileBytes.exists(folder.file("once.txt")) ? try FileBytes.readText(folder.file("once.txt")) : ""
        #expect(ours.output == theirs.output)
        #expect(ourFile == theirFile)
    }

    @Test func onceSendsOnlyTheNextCommandToTheFile() throws {
        let file = folder.file("once.txt")
        let run = shell(".once \(file)\n.tables\nSELECT 'after';\n")
        #expect(run.output == "after\n")
        #expect(try FileBytes.readText(folder.file("once.txt")) == "wine\n")
        #expect(shell(".once\n").status == 0)
        #expect(shell(".once -x\n").error.contains("Usage: .once FILE"))
    }

    @Test func showIsSQLite3sForTheSettingsBothHave() throws {
        let input = ".headers on\n.nullvalue NIL\n.separator , \\r\\n\n.eqp on\n.stats on\n.show\n"
        let ours = shell(input)
        #expect(ours.status == 0, "\(ours.error)")
        let theirs = try sqlite3(input)
        #expect(ours.output == theirs.output)
        let output = shell(".output \(folder.file("o.txt"))\n.show\n.output\n")
        #expect(try FileBytes.readText(folder.file("o.txt")).contains("      output: \(folder.file("o.txt"))\n"))
        #expect(output.output.isEmpty)
    }

    @Test func widthFixesColumnsCutsWithAnEllipsisAndAlignsNegativeOnesRight() {
        let run = shell(".mode table\n.width 4 -6\nSELECT id, name FROM wine;\n.width\nSELECT name FROM wine WHERE id = 2;\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(
            run.output == """
                +------+--------+
                |  id  |  name  |
                +------+--------+
                |    1 |    Red |
                |    2 |  Blanc |
                |    3 |   Rosé |
                +------+--------+
                +-------+
                | name  |
                +-------+
                | Blanc |
                +-------+

                """)
        let cut = shell(".mode box\n.width 3\nSELECT name FROM wine WHERE id = 2;\n")
        #expect(cut.output.contains("│ Bl… │"))
        // As sqlite3: a width that is not a number is 0, sized from the content.
        #expect(shell(".width x\n").status == 0)
    }

    @Test func promptsAreKeptForTheTerminal() {
        // The prompts only show at a terminal (see the terminal tests); here they must parse.
        #expect(shell(".prompt 'sql> ' '  -> '\n.prompt\n").status == 0)
        #expect(shell(".prompt a b c\n").error.contains("Usage: .prompt MAIN [CONTINUE]"))
        #expect(shell(".prompt 'sql> '\n").status == 0)
    }

    // MARK: - Copies

    @Test(arguments: [".backup", ".backup main", ".save"])
    func backupAndSaveWriteAWholeCopyWithTheDatabasesPermissions(command: String) throws {
        chmod(databasePath, 0o640)
        let copy = folder.file("copy.db")
        _ = try folder.write("copy.db", "old content that is replaced")
        let run = shell("INSERT INTO wine (name) VALUES ('late');\n\(command) \(copy)\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(try DatabaseFingerprint.lines(of: copy) == DatabaseFingerprint.lines(of: databasePath))
        var status = stat()
        stat(copy, &status)
        #expect(status.st_mode & 0o777 == 0o640)
        #expect(
            try DirectoryListing.fileNames(in: folder.path).filter { $0.contains(".cellar-") }.isEmpty,
            "no temporary file is left")
    }

    @Test func aBackupIsReadableBySQLite3AndItsBackupByCellar() throws {
        _ = shell(".backup \(folder.file("ours.bak"))\n")
        _ = try sqlite3(".backup \(folder.file("theirs.bak"))\n")
        #expect(
            try DatabaseFingerprint.lines(of: folder.file("ours.bak")) == DatabaseFingerprint.lines(of: folder.file("theirs.bak"))
        )
    }

    @Test func restoreLeavesWhatSQLite3sRestoreLeaves() throws {
        try Database(path: folder.file("other.db")).execute("CREATE TABLE other (x); INSERT INTO other VALUES (X'00ff'), (2.5)")
        for name in ["ours.db", "theirs.db"] {
            try Database(path: folder.file(name)).execute("CREATE TABLE gone (y); INSERT INTO gone VALUES (1)")
        }
        let ours = InProcessRun(["shell", "-d", folder.file("ours.db")], input: ".restore \(folder.file("other.db"))\n")
        #expect(ours.status == 0, "\(ours.error)")
        _ = try sqlite3(".restore \(folder.file("other.db"))\n", database: folder.file("theirs.db"))
        #expect(
            try DatabaseFingerprint.lines(of: folder.file("ours.db")) == DatabaseFingerprint.lines(of: folder.file("theirs.db")))
        #expect(
            try DatabaseFingerprint.lines(of: folder.file("ours.db")) == DatabaseFingerprint.lines(of: folder.file("other.db")))
    }

    @Test func restoreReplacesTheContentAndABadFileChangesNothing() throws {
        try Database(path: folder.file("other.db")).execute("CREATE TABLE other (x); INSERT INTO other VALUES (42)")
        let before = try DatabaseFingerprint.lines(of: databasePath)
        _ = try folder.write("junk.db", String(repeating: "not a database ", count: 100))
        let bad = shell(".restore \(folder.file("junk.db"))\n")
        #expect(bad.status == 1)
        #expect(bad.error.contains("the database is unchanged"))
        #expect(try DatabaseFingerprint.lines(of: databasePath) == before)
        #expect(shell(".restore \(folder.file("none.db"))\n").error.contains("no such file"))
        // sqlite3's .restore of an empty file empties the database; cellar's refuses it.
        _ = try folder.write("empty.db", "")
        let empty = shell(".restore \(folder.file("empty.db"))\n")
        #expect(empty.status == 1 && empty.error.contains("is not an SQLite database file"), "\(empty.error)")
        #expect(try DatabaseFingerprint.lines(of: databasePath) == before)
        let run = shell(".restore \(folder.file("other.db"))\nSELECT x FROM other;\n.tables\n")
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "42\nother\n")
    }
}

/// A marker for the `.once` file in parameterised inputs (the folder is known only in the test).
private enum OnceFile {
    static let placeholder = "@ONCE@"
}
