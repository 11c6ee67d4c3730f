import Testing

@testable import CellarCLI

/// Options are looked up by the `OptionSpec` a command declares; these check what the compiler cannot:
/// that each name means one option on a command line, and that a lookup of an option the command line was
/// not parsed against is caught instead of reading as "not given".
@Suite struct ParsedArgumentsTests {
    static let commandNames = CommandTable.cellar.commands.map(\.name)

    @Test(arguments: commandNames)
    func everyNameMeansOneOptionOfItsCommand(name: String) throws {
        let table = CommandTable.cellar
        let command = try #require(table.command(named: name))
        let options = table.globalOptions + table.toolOptions + command.options
        let longNames = options.flatMap { [$0.long] + $0.aliases }
        let shortNames = options.flatMap { [$0.short, $0.otherShort].compactMap(\.self) }
        #expect(Set(longNames).count == longNames.count, "\(name): \(longNames.sorted())")
        #expect(Set(shortNames).count == shortNames.count, "\(name): \(shortNames.sorted())")
    }

    @Test func aDeclaredOptionReadsWhatWasGiven() throws {
        let parser = ArgumentParser(globalOptions: GlobalOptions.options)
        let parsed = try parser.parse(["dump", "--schema-only"], for: DumpCommand.spec)
        #expect(parsed.has(DumpCommand.schemaOnly))
        #expect(!parsed.has(DumpCommand.dataOnly))
        #expect(!parsed.has(GlobalOptions.quiet))
    }

    #if DEBUG
        // The lookups that are programming errors stop a debug build, so a test of the command that makes
        // one fails; a release build treats them as "not given", as before.
        @Test func lookingUpAnUndeclaredOptionStops() async {
            await #expect(processExitsWith: .failure) {
                let parser = ArgumentParser(globalOptions: GlobalOptions.options)
                let parsed = try parser.parse(["dump"], for: DumpCommand.spec)
                _ = parsed.has(DiffCommand.exitCode)
            }
        }

        @Test func lookingUpAFlagAsAValueStops() async {
            await #expect(processExitsWith: .failure) {
                let parser = ArgumentParser(globalOptions: GlobalOptions.options)
                let parsed = try parser.parse(["dump"], for: DumpCommand.spec)
                _ = parsed.value(of: DumpCommand.schemaOnly)
            }
        }
    #endif
}
