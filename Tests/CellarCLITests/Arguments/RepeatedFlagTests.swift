import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// Opposing and repeated flags: the last one given wins, and `--color` counts even when the command line
/// does not parse.
@Suite struct RepeatedFlagTests {
    static let headerCases: [(flags: [String], output: String)] = [
        (["--header", "--no-header"], "1\n"),
        (["--no-header", "--header"], "x\n1\n"),
        (["--header", "--no-header", "--header"], "x\n1\n"),
    ]

    @Test(arguments: headerCases)
    func theLastHeaderFlagWins(flags: [String], output: String) throws {
        let folder = TemporaryDirectory()
        let path = folder.path + "/h.db"
        #expect(InProcessRun(["run", "-", "-d", path], input: "CREATE TABLE t(x); INSERT INTO t VALUES (1);").status == 0)
        let run = InProcessRun(["query", "SELECT x FROM t", "--mode", "list", "-d", path] + flags)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == output)
    }

    static let colorCases: [(arguments: [String], colored: Bool)] = [
        (["--color", "always", "migrat"], true),
        (["--color=always", "migrate", "--dry-rum"], true),
        (["migrat", "--color", "never"], false),
        (["--color", "always", "--color", "never", "migrat"], false),
    ]

    @Test(arguments: colorCases)
    func colorIsHonouredForCommandLinesThatDoNotParse(arguments: [String], colored: Bool) {
        let run = InProcessRun(arguments, environment: ["NO_COLOR": "1"])
        #expect(run.status == 2)
        #expect(run.error.contains(DiagnosticFormatter.coloredErrorLabel) == colored, "\(run.error)")
        #expect(run.error.contains("error:"))
    }

    @Test func lastFlagPicksTheLaterOfTwoOpposingFlags() {
        let a = OptionSpec("a", help: "a")
        let b = OptionSpec("b", help: "b")
        var parsed = ParsedArguments(declaring: [a, b])
        #expect(parsed.lastFlag(of: a, b) == nil)
        parsed.set(b)
        parsed.set(a)
        #expect(parsed.lastFlag(of: a, b) == a)
        parsed.set(b)
        #expect(parsed.lastFlag(of: a, b) == b)
    }
}
