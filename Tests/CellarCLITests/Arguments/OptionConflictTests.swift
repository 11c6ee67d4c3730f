import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// Options a command refuses together are declared in its `CommandSpec`; the refusal is a usage error
/// before the command touches anything.
@Suite struct OptionConflictTests {
    @Test(arguments: [
        (["dump", "--schema-only", "--data-only"], "--schema-only and --data-only exclude each other"),
        (["rollback", "--to", "0", "--steps", "1"], "give either --steps or --to, not both"),
        (
            ["shell", "--safe", "--init", "start.sql"],
            "--init cannot be used with --safe (a start-up file could undo its refusals)"
        ),
        (
            ["test", "--against", "other.sqlite", "--all"],
            "--all tests every migration from an empty database and --against the pending ones on a copy of a database: "
                + "give one of them"
        ),
    ])
    func bothOptionsAreAUsageErrorAndNothingIsOpened(arguments: [String], message: String) {
        let folder = TemporaryDirectory()
        let database = folder.file("app.sqlite")
        let run = InProcessRun(["-d", database, "-m", folder.file("migrations")] + arguments)
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("cellar: error: \(message)\nusage: cellar \(arguments[0]) "), "\(run.error)")
        #expect(run.output.isEmpty)
        #expect(!DatabaseFile.exists(database))
    }

    @Test(arguments: CommandTable.cellar.commands.map(\.name))
    func everyConflictIsBetweenOptionsItsCommandDeclares(name: String) throws {
        let command = try #require(CommandTable.cellar.command(named: name))
        for conflict in command.conflicts {
            #expect(command.options.contains(conflict.first), "\(name): --\(conflict.first.long)")
            #expect(command.options.contains(conflict.second), "\(name): --\(conflict.second.long)")
        }
    }

    @Test func eitherOptionAloneIsAccepted() throws {
        let parser = ArgumentParser(globalOptions: GlobalOptions.options)
        for arguments in [["dump", "--schema-only"], ["dump", "--data-only"]] {
            try DumpCommand.spec.refuseConflicts(in: parser.parse(arguments, for: DumpCommand.spec))
        }
    }
}
