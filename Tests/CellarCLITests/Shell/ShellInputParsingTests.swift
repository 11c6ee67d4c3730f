import Testing

@testable import CellarCLI

@Suite struct ShellInputParsingTests {
    @Test(arguments: [
        (".schema", "schema", [String]()),
        (".tables\r", "tables", [String]()),
        (".headers on\r", "headers", ["on"]),
        ("  .mode   box ", "mode", ["box"]),
        (".nullvalue 'no value'", "nullvalue", ["no value"]),
        (#".parameter set :n "a \"b\"""#, "parameter", ["set", ":n", "a \"b\""]),
        (".schema x' OR '1'='1", "schema", ["x'", "OR", "1", "='1"]),
        (#".print "a\tb" 'c\td' e\\f\101"#, "print", ["a\tb", "c\\td", "e\\fA"]),
    ])
    func dotCommandArguments(line: String, name: String, arguments: [String]) {
        let command = DotCommandLine(line)
        #expect(command.name == name)
        #expect(command.arguments == arguments)
    }

    @Test func aPatternKeepsEveryArgument() {
        #expect(DotCommandLine(".schema x' OR '1'='1").pattern == "x' OR '1'='1")
        #expect(DotCommandLine(".tables").pattern == nil)
    }

    @Test func statementsRunWhenSQLiteSaysTheyAreComplete() {
        var accumulator = StatementAccumulator()
        #expect(accumulator.add("", lineNumber: 1) == .pending)
        #expect(accumulator.add("SELECT 'a;", lineNumber: 2) == .pending)
        #expect(accumulator.add("b';", lineNumber: 3) == .sql("SELECT 'a;\nb';", firstLine: 2))
        #expect(accumulator.isEmpty)
        #expect(accumulator.add("SELECT 1; SELECT 2;", lineNumber: 4) == .sql("SELECT 1; SELECT 2;", firstLine: 4))
    }

    @Test func aStatementWithAnUnreadableLineIsSkippedUpToWhereItEnds() {
        var accumulator = StatementAccumulator()
        #expect(accumulator.addUnreadable("SELECT 'a\u{FFFD}", lineNumber: 1) == .pending)
        #expect(accumulator.add(".output x", lineNumber: 2) == .pending)
        #expect(accumulator.add("DELETE FROM t;", lineNumber: 3) == .pending)
        #expect(accumulator.add("';", lineNumber: 4) == .skipped)
        #expect(accumulator.isEmpty)
        #expect(accumulator.add("SELECT 1;", lineNumber: 5) == .sql("SELECT 1;", firstLine: 5))
        #expect(accumulator.addUnreadable(".output \u{FFFD}", lineNumber: 6) == .skipped)
        #expect(accumulator.add("SELECT 2,", lineNumber: 7) == .pending)
        #expect(accumulator.addUnreadable("\u{FFFD}", lineNumber: 8) == .pending)
        #expect(accumulator.finish() == .skipped)
    }

    @Test func dotCommandsOnlyStartAStatement() {
        var accumulator = StatementAccumulator()
        #expect(accumulator.add("  .tables", lineNumber: 1) == .dotCommand("  .tables"))
        #expect(accumulator.add("SELECT 1,", lineNumber: 2) == .pending)
        #expect(accumulator.add(".5;", lineNumber: 3) == .sql("SELECT 1,\n.5;", firstLine: 2))
    }

    @Test func discardAndFinish() {
        var accumulator = StatementAccumulator()
        _ = accumulator.add("SELECT 1,", lineNumber: 1)
        accumulator.discard()
        #expect(accumulator.isEmpty)
        #expect(accumulator.finish() == .pending)
        _ = accumulator.add("SELECT 2", lineNumber: 2)
        #expect(accumulator.finish() == .sql("SELECT 2", firstLine: 2))
    }

    @Test func runClockFormatsFixedDecimals() {
        #expect(RunClock.format(0.0123, digits: 3) == "0.012")
        #expect(RunClock.format(2.5, digits: 6) == "2.500000")
        #expect(RunClock().summary().hasPrefix("Run Time: real 0."))
    }
}
