import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// The one table of dot-commands: each row's declarations (arity, `--safe`, cluster support,
/// completion) are what the shell does with the command.
@Suite struct DotCommandCatalogTests {
    let folder = TemporaryDirectory()
    var databasePath: String { folder.file("t.db") }

    private func shell(_ input: String, _ extra: [String] = []) -> InProcessRun {
        InProcessRun(["shell", "-d", databasePath] + extra, input: input)
    }

    @Test func namesAndAliasesAreUniqueAndEachResolvesToItsRow() {
        let names = DotCommandCatalog.entries.flatMap { [$0.name] + $0.aliases }
        #expect(Set(names).count == names.count)
        for entry in DotCommandCatalog.entries {
            #expect(DotCommandCatalog.resolve(entry.name) == .command(entry.name))
            for alias in entry.aliases { #expect(DotCommandCatalog.resolve(alias) == .command(entry.name)) }
        }
        #expect(DotCommandCatalog.resolve("indices") == .command("indexes"))
    }

    /// Every row `--safe` refuses is refused before its handler runs (a bogus argument would otherwise
    /// give its own error); every other row is let through to its handler.
    @Test(arguments: DotCommandCatalog.entries.map(\.name))
    func safeModeRefusesExactlyTheRowsThatSaySo(name: String) throws {
        let row = try #require(DotCommandCatalog.entry(name))
        guard !["quit", "exit", "read", "shell", "system"].contains(name) || row.isRefusedWhenSafe else { return }
        let run = shell(".\(name) \(folder.file("nothing-here"))\n", ["--safe"])
        #expect(run.error.contains(".\(name) is not allowed with --safe") == row.isRefusedWhenSafe, "\(run.error)")
    }

    @Test func aWrongArgumentCountIsTheRowsUsageErrorAndRunsNothing() {
        let run = shell(".read a b\n.open x y\n.output a b\n.load\n")
        #expect(run.status == 1)
        for usage in ["Usage: .read FILE", "Usage: .open FILE", "Usage: .output [FILE]", "Usage: .load FILE [ENTRY]"] {
            #expect(run.error.contains(usage), "\(usage): \(run.error)")
        }
        #expect(!DatabaseFile.exists(folder.file("a")))
    }

    @Test func theRowsThatNeedAFileSayWhyOnACluster() {
        let refused = DotCommandCatalog.entries.filter { $0.cluster.refusal(of: $0.name, url: "dqlite://x/db") != nil }
        #expect(
            refused.map(\.name) == [
                "archive", "backup", "blob", "dbinfo", "load", "log", "restore", "save", "stats", "timeout", "trace",
            ])
        let backup = DotCommandCatalog.entry("backup")?.cluster.refusal(of: ".backup", url: "dqlite://x/db")
        #expect(
            backup
                == "'.backup' needs SQLite's online backup API on a local file, which a dqlite cluster does not offer (dqlite://x/db)"
        )
    }

    @Test func completionFollowsTheRow() {
        let paths = DotCommandCatalog.entries.filter { $0.completion == .paths }.map(\.name)
        #expect(
            paths == ["archive", "backup", "blob", "import", "load", "log", "once", "open", "output", "read", "restore", "save"])
        let onOff = DotCommandCatalog.entries.filter { $0.completion == .onOff }.map(\.name)
        #expect(onOff == ["bail", "changes", "echo", "eqp", "headers", "stats", "timer"])
    }

    @Test func commandsDeclareTheirFleetAndClusterSupportInTheirSpec() {
        let specs = CommandRegistry.commands.map { $0.spec }
        #expect(specs.filter(\.runsOnFleet).map(\.name) == ["setup", "migrate", "status", "verify"])
        let onCluster = specs.filter { $0.cluster.refusal(of: $0.name, url: "u") == nil }.map(\.name)
        #expect(
            Set(onCluster)
                == [
                    "migrate", "setup", "status", "verify", "rollback", "baseline", "accept", "seed", "schema", "query", "run",
                    "dump", "shell", "lint", "test", "diff", "adopt", "redo",
                ])
        let restore = CommandRegistry.command(named: "restore")?.spec.cluster.refusal(of: "restore", url: "u")
        #expect(
            restore == "'restore' needs SQLite's online backup API on a local file, which a dqlite cluster does not offer (u)")
        let other = CommandRegistry.command(named: "wait")?.spec.cluster.refusal(of: "wait", url: "u")
        #expect(other == "'wait' does not work on a dqlite database yet (u); run it on a file")
    }

    /// The dot-commands a sentence of `cellar shell --help` names, from `start` to `end`.
    private func dotCommands(inHelpFrom start: String, to end: String) throws -> Set<String> {
        let help = InProcessRun(["shell", "--help"]).output.replacing("\n", with: " ")
        let from = try #require(help.firstRange(of: start), "\(start) not in: \(help)")
        let to = try #require(help[from.upperBound...].firstRange(of: end))
        let sentence = help[from.lowerBound..<to.upperBound]
        return Set(sentence.matches(of: /\.[a-z]+/).map { String($0.output) })
    }

    /// `cellar shell --help` names exactly the rows a cluster refuses and those `--safe` refuses
    /// (with `.pager`, whose COMMAND `--safe` refuses in its handler), so the help cannot drift.
    @Test func theHelpNamesExactlyTheRefusedRows() throws {
        let onCluster = DotCommandCatalog.entries.filter { $0.cluster.refusal(of: $0.name, url: "u") != nil }
        #expect(
            try dotCommands(inHelpFrom: "On a dqlite database", to: "say why they cannot.")
                == Set(onCluster.map { "." + $0.name }))
        let whenSafe = DotCommandCatalog.entries.filter(\.isRefusedWhenSafe).map { "." + $0.name }
        #expect(try dotCommands(inHelpFrom: "--safe refuses", to: ". ") == Set(whenSafe + [".pager"]))
    }
}
