import Testing

@testable import CellarCLI

@Suite struct ConfigurationTests {
    private let parser = ArgumentParser(globalOptions: GlobalOptions.options)

    private func configuration(_ arguments: [String], environment: [String: String], terminal: Bool = true) throws
        -> Configuration
    {
        try Configuration(parser.parse(arguments, for: nil), environment: environment, isErrorTerminal: terminal)
    }

    @Test func defaultsApplyWhenNothingIsGiven() throws {
        let settings = try configuration([], environment: [:])
        #expect(settings.databasePath == "cellar.sqlite")
        #expect(settings.migrationsDirectory == "migrations")
        #expect(settings.seedsDirectory == "seeds")
        #expect(settings.busyTimeout == 5000)
        #expect(settings.usesColor)
        #expect(!settings.isQuiet)
    }

    @Test func environmentBeatsDefaultsAndFlagsBeatEnvironment() throws {
        let environment = [
            "CELLAR_DATABASE": "env.db", "CELLAR_MIGRATIONS": "env-m", "CELLAR_SEEDS": "env-s", "CELLAR_BUSY_TIMEOUT": "10",
        ]
        let fromEnvironment = try configuration([], environment: environment)
        #expect(fromEnvironment.databasePath == "env.db")
        #expect(fromEnvironment.migrationsDirectory == "env-m")
        #expect(fromEnvironment.seedsDirectory == "env-s")
        #expect(fromEnvironment.busyTimeout == 10)
        let fromFlags = try configuration(
            ["-d", "flag.db", "-m", "flag-m", "--seeds", "flag-s", "--busy-timeout", "20"], environment: environment)
        #expect(fromFlags.databasePath == "flag.db")
        #expect(fromFlags.migrationsDirectory == "flag-m")
        #expect(fromFlags.seedsDirectory == "flag-s")
        #expect(fromFlags.busyTimeout == 20)
    }

    @Test(
        arguments: [
            ([], [:], true, true), ([], ["NO_COLOR": "1"], true, false), ([], [:], false, false),
            (["--color", "always"], ["NO_COLOR": "1"], false, true), (["--color=never"], [:], true, false),
        ] as [([String], [String: String], Bool, Bool)])
    func colourFollowsFlagThenNoColorThenTerminal(
        arguments: [String], environment: [String: String], terminal: Bool, expected: Bool
    ) throws {
        #expect(try configuration(arguments, environment: environment, terminal: terminal).usesColor == expected)
    }

    @Test(arguments: [(["--busy-timeout", "soon"], "busy timeout"), (["--color", "blue"], "auto, always or never")])
    func badValuesAreUsageErrors(arguments: [String], fragment: String) {
        let error = #expect(throws: UsageError.self) { try configuration(arguments, environment: [:]) }
        #expect(error?.message.contains(fragment) == true)
    }
}
