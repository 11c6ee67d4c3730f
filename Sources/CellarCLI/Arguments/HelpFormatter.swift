/// Writes help in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
enum HelpFormatter {
    /// Help for one command.
    static func help(for command: CommandSpec, globalOptions: [OptionSpec]) -> String {
        var text = "OVERVIEW: \(command.abstract)\n\n"
        text += "USAGE: \(usage(for: command))\n"
        if !command.aliases.isEmpty {
            text += "\nALIASES: \(command.aliases.joined(separator: ", "))\n"
        }
        if let discussion = command.discussion {
            text += "\n\(discussion)\n"
        }
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n" + table(command.arguments.map { ("<\($0.name)>", $0.help) })
        }
        let ownOptions = command.options + [helpOption]
        text += "\nOPTIONS:\n" + table(ownOptions.map { ($0.synopsis, $0.help) })
        text += "\nGLOBAL OPTIONS:\n" + table(globalOptions.map { ($0.synopsis, $0.help) })
        if !command.examples.isEmpty {
            text += "\nEXAMPLES:\n" + command.examples.map { "  \($0.commandLine)\n      \($0.summary)\n" }.joined()
        }
        return text
    }

    /// `text` broken into lines of at most `width` characters at spaces (a word longer than the
    /// width keeps a line of its own), as the hand-wrapped paragraphs of a command's discussion.
    static func wrapped(_ text: String, width: Int = 95) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// The one-line usage of a command.
    static func usage(for command: CommandSpec) -> String {
        var parts = ["cellar", command.name]
        parts += command.arguments.map(\.synopsis)
        parts += command.options.map { "[\($0.synopsis)]" }
        return parts.joined(separator: " ")
    }

    /// Help for the tool as a whole.
    static func toolHelp(_ commandTable: CommandTable) -> String {
        var text = "OVERVIEW: \(overview)\n\n"
        text += "USAGE: \(toolUsage)\n"
        let options = commandTable.globalOptions + commandTable.toolOptions
        text += "\nOPTIONS:\n" + table(options.map { ($0.synopsis, $0.help) })
        text += "\nSUBCOMMANDS:\n" + table(commandTable.commands.map { ($0.names.joined(separator: ", "), $0.abstract) })
        text += "\n  See 'cellar help <command>' or 'cellar <command> --help' for detailed help.\n"
        return text
    }

    /// What cellar is, in one sentence.
    static let overview = "cellar bootstraps, upgrades and explores SQLite databases."

    /// The usage line of the tool as a whole.
    static let toolUsage = "cellar [<global options>] <command> [<arguments>]"

    /// The `--help` option every command has.
    static let helpOption = OptionSpec("help", short: "h", help: "Show help information.")

    private static func table(_ rows: [(String, String)]) -> String {
        let width = min(max(rows.map(\.0.count).max() ?? 0, 10), 28)
        return rows.map { name, help in
            if name.count > width {
                return "  \(name)\n  \(String(repeating: " ", count: width))  \(help)\n"
            }
            return "  \(name)\(String(repeating: " ", count: width - name.count))  \(help)\n"
        }.joined()
    }
}
