import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// Issue 15 M7 and L3, as the command line reports them: CR-only line ends, a lock held by another
/// connection, and an error on a very long line.
@Suite struct ClearErrorTests {
    @Test(arguments: ["run", "seed"])
    func crOnlyLineEndsAreReportedAtTheFirstCR(command: String) throws {
        let project = try CLIProject()
        let text = "CREATE TABLE a (x); -- first\rCREATE TABLE b (x);\r"
        let path = try project.folder.write(command == "seed" ? "seeds/a.sql" : "a.sql", text)
        #expect(project.run(["create"]).status == 0)
        let result = project.run([command, path])
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.hasPrefix("\(path):1:29: error: line ends are CR only"), "\(result.error)")
        #expect(try project.tables().isEmpty)
    }

    @Test(arguments: [["run"], ["migrate"], ["query", "CREATE TABLE c (x)"]])
    func aLockHeldByAnotherConnectionSaysWhatAndHowToWait(arguments: [String]) throws {
        let project = try CLIProject(["1_a.sql": "CREATE TABLE a (x);\n"])
        let script = try project.folder.write("s.sql", "CREATE TABLE b (x);\n")
        #expect(project.run(["create"]).status == 0)
        let holder = try Database(path: project.databasePath)
        try holder.execute("BEGIN IMMEDIATE; CREATE TABLE held (x)")
        let result = project.run(arguments + (arguments == ["run"] ? [script] : []) + ["--busy-timeout", "0"])
        #expect(result.status == 1)
        #expect(result.error.contains("another connection"), "\(result.error)")
        #expect(result.error.contains("--busy-timeout"), "\(result.error)")
        try holder.execute("ROLLBACK")
        #expect(try project.tables().isEmpty)
    }

    @Test func anErrorOnAVeryLongLineShowsOnlyTheLineAroundTheCaret() throws {
        let project = try CLIProject()
        #expect(project.run(["create"]).status == 0)
        let padding = String(repeating: " ", count: 2_500_000)
        let result = project.run(["query", "SELECT 1" + padding + " FROM ) AS nowhere" + padding])
        #expect(result.status == 1)
        #expect(result.error.utf8.count < 1_000, "\(result.error.utf8.count) bytes")
        let lines = result.error.split(separator: "\n").map(String.init)
        #expect(lines[0] == "<query>:1:2500015: error: near \")\": syntax error")
        #expect(try caretColumn(lines[2]) == position(of: ")", in: lines[1]))
    }

    @Test(arguments: [
        (String(repeating: "a", count: 3_000_000) + "Z" + String(repeating: "b", count: 3_000_000), 3_000_001),
        ("Z" + String(repeating: "b", count: 500), 1), (String(repeating: "a", count: 500) + "Z", 501),
        ("\t\ta\u{1B}Z" + String(repeating: "é", count: 300), 5),
        (String(repeating: "é", count: 300) + "\u{1B}Z" + String(repeating: "b", count: 300), 302),
        ("SELECT Z", 8),
    ])
    func theSourceLineIsCutAroundTheCaretWhichStaysAligned(line: String, column: Int) throws {
        let diagnostic = Diagnostic(
            path: "a.sql", location: SourceLocation(line: 7, column: column), sourceLine: line, message: "bad")
        let lines = DiagnosticFormatter(usesColor: false).format(diagnostic).split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1].unicodeScalars.count <= 100, "\(lines[1])")
        #expect(try caretColumn(lines[2]) == position(of: "Z", in: lines[1]))
        if line.unicodeScalars.count <= 100 { #expect(lines[1].hasSuffix(line.replacing("\u{1B}", with: "\\x1b"))) }
    }

    /// Where `^` stands, counting a tab as the step to the next multiple of 8 and other scalars as one.
    private func caretColumn(_ line: String) throws -> Int {
        try #require(displayColumn(of: "^", in: line))
    }

    private func position(of needle: String, in line: String) throws -> Int {
        try #require(displayColumn(of: needle, in: line))
    }

    private func displayColumn(of needle: String, in line: String) -> Int? {
        var column = 0
        var rest = Substring(line)
        while !rest.isEmpty {
            if rest.hasPrefix(needle) { return column }
            let scalar = rest.unicodeScalars.first!
            column = scalar == "\t" ? (column / 8 + 1) * 8 : column + 1
            rest = Substring(rest.unicodeScalars.dropFirst())
        }
        return nil
    }
}
