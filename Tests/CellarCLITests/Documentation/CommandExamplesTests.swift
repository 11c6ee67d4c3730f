import TestSupport
import Testing

@testable import CellarCLI

/// Every command's spec carries EXAMPLES, and each example is a command line the parser accepts for that
/// command, so `--help`, the man page and the reference never show a flag that does not exist.
@Suite struct CommandExamplesTests {
    static let commandNames = CommandTable.cellar.commands.map(\.name)

    @Test(arguments: commandNames)
    func everyExampleParsesAsItsCommand(name: String) throws {
        let table = CommandTable.cellar
        let command = try #require(table.command(named: name))
        #expect(!command.examples.isEmpty, "\(name) has no examples: add examples: to its CommandSpec")
        let parser = ArgumentParser(globalOptions: table.globalOptions)
        for example in command.examples {
            let words = Self.words(example.commandLine)
            try #require(words.first == "cellar", "\(example.commandLine) does not start with cellar")
            let arguments = Array(words.dropFirst())
            #expect(parser.commandName(in: arguments).map(command.names.contains) == true, "\(example.commandLine)")
            let parsed = try parser.parse(arguments, for: command)
            #expect(parsed.positionals.count >= command.minimumArgumentCount, "\(example.commandLine)")
            #expect(parsed.positionals.count <= command.maximumArgumentCount ?? .max, "\(example.commandLine)")
            #expect(!example.summary.isEmpty && example.summary.last == ".", "\(example.commandLine): \(example.summary)")
        }
    }

    @Test(arguments: commandNames)
    func helpEndsWithTheExamples(name: String) throws {
        let command = try #require(CommandTable.cellar.command(named: name))
        let help = InProcessRun([name, "--help"]).output
        let examples = try #require(help.firstRange(of: "\nEXAMPLES:\n"), "no EXAMPLES in \(name) --help")
        let section = help[examples.upperBound...]
        for example in command.examples {
            #expect(section.contains("  \(example.commandLine)\n      \(example.summary)\n"), "\(example.commandLine)")
        }
    }

    @Test func theWordsOfAnExampleStopAtTheFirstShellOperator() {
        #expect(
            Self.words(#"cellar query "SELECT 'a b'" --mode csv > out.csv"#) == [
                "cellar", "query", "SELECT 'a b'", "--mode", "csv",
            ])
        #expect(Self.words("cellar setup -d 'tenants/*.sqlite' && echo ok") == ["cellar", "setup", "-d", "tenants/*.sqlite"])
        #expect(Self.words("cellar manual | man -l -") == ["cellar", "manual"])
    }

    /// The words of `line` as a POSIX shell splits them (quotes, no expansion), up to the first unquoted
    /// `|`, `&`, `;`, `<` or `>`.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word!.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                word = word ?? ""
            } else if character == " " {
                if let finished = word { words.append(finished) }
                word = nil
            } else if "|&;<>".contains(character) {
                break
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let finished = word { words.append(finished) }
        return words
    }
}
