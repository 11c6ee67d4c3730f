import Testing

@testable import CellarCLI

@Suite struct ArgumentParserTests {
    private let parser = ArgumentParser(globalOptions: GlobalOptions.options + [HelpFormatter.helpOption])
    private static let mode = OptionSpec("mode", value: "mode", help: "m")
    private static let param = OptionSpec("param", value: "v", repeatable: true, help: "p")
    private static let header = OptionSpec("header", help: "h")
    private let spec = CommandSpec(
        name: "query", abstract: "q", arguments: [.init("sql", help: "s")], options: [mode, param, header])

    @Test(
        arguments: [
            (["query", "SELECT 1", "--mode", "csv"], "csv", "cellar.sqlite"),
            (["query", "--mode=csv", "SELECT 1"], "csv", "cellar.sqlite"),
            (["-d", "x.db", "query", "SELECT 1"], nil, "x.db"),
            (["query", "SELECT 1", "--database=y.db"], nil, "y.db"),
            (["-dz.db", "query", "SELECT 1"], nil, "z.db"),
            (["--database", "query", "query", "SELECT 1"], nil, "query"),
        ] as [([String], String?, String)])
    func optionsParseInEveryAcceptedSpelling(arguments: [String], mode: String?, database: String) throws {
        #expect(parser.commandName(in: arguments) == "query")
        let parsed = try parser.parse(arguments, for: spec)
        #expect(parsed.positionals == ["SELECT 1"])
        #expect(parsed.value(of: Self.mode) == mode)
        #expect(GlobalOptions.database.resolve(parsed, environment: [:]) == database)
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try parser.parse(["query", "--", "--header"], for: spec)
        #expect(parsed.positionals == ["--header"])
        #expect(!parsed.has(Self.header))
    }

    @Test func repeatableOptionsKeepEveryValueInOrder() throws {
        let parsed = try parser.parse(["query", "x", "--param", "1", "--param=-2", "--header"], for: spec)
        #expect(parsed.values(of: Self.param) == ["1", "-2"])
        #expect(parsed.has(Self.header))
    }

    @Test(arguments: [
        (["query", "--mdoe", "csv"], "unknown option '--mdoe'; did you mean '--mode'?"),
        (["query", "--zzz"], "unknown option '--zzz'"),
        (["query", "--mode"], "option '--mode' needs a value <mode>"),
        (["query", "--header=yes"], "option '--header' does not take a value"),
    ])
    func mistakesAreUsageErrors(arguments: [String], message: String) {
        let error = #expect(throws: UsageError.self) { try parser.parse(arguments, for: spec) }
        #expect(error?.message == message)
        #expect(error?.command == "query")
    }

    @Test(arguments: [
        ("qurey", "query", true), ("quer", "query", true), ("status", "query", false), ("mgirate", "migrate", true),
    ])
    func nearMissesAreSuggested(typed: String, candidate: String, suggested: Bool) {
        #expect((NearMiss.suggestion(for: typed, among: [candidate, "setup"]) == candidate) == suggested)
    }
}
