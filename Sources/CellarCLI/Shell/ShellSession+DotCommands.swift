import CellarKit
import DqliteClient
import Glibc

/// Why a dot-command failed, in one line.
struct DotCommandError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension ShellSession {
    /// Runs one dot-command line; `path` and `lineNumber` place its errors.
    func runDotCommand(_ text: String, path: String, lineNumber: Int) -> DotCommandOutcome {
        let command = DotCommandLine(text)
        let resolved = DotCommandCatalog.resolve(command.name)
        if ![.command("quit"), .command("exit"), .command("open")].contains(resolved) { transactionWarning = nil }
        // A dot-command may change the schema (`.import` creates a table); on a cluster, where reading
        // it is a round trip, only those that do read it first (an unreachable cluster does not delay `.quit`).
        if !connection.requestsAreRoundTrips { captureOpeningSchema() }
        do {
            return try perform(command)
        } catch let error as DotCommandError {
            reportError(error.message, path: path, line: lineNumber, text: text)
        } catch let error as SQLiteError {
            reportError(error.message, path: path, line: lineNumber, text: text)
        } catch let diagnostic as Diagnostic {
            report(diagnostic)
        } catch let error as CommandFailure {
            reportError(error.message, path: path, line: lineNumber, text: text)
        } catch let error as MigrationError {
            guard let diagnostic = error.diagnostic else {
                reportError(error.description, path: path, line: lineNumber, text: text)
                return .failed
            }
            report(diagnostic)
        } catch {
            reportError(String(describing: error), path: path, line: lineNumber, text: text)
        }
        return .failed
    }

    private func perform(_ typed: DotCommandLine) throws -> DotCommandOutcome {
        let row: DotCommand
        switch DotCommandCatalog.resolve(typed.name) {
        case .command(let name):
            guard let found = DotCommandCatalog.entry(name) else { throw Self.unknown(typed.name) }
            row = found
        case .unknown: throw Self.unknown(typed.name)
        case .ambiguous(let names):
            throw DotCommandError(
                "ambiguous command '.\(typed.name)': " + names.map { "." + $0 }.joined(separator: ", ") + " (see .help)")
        case .refused(let name, let taken?):
            throw DotCommandError(
                "unknown command '.\(typed.name)': sqlite3 takes '.\(typed.name)' as '.\(taken)', which cellar does not have"
                    + " ('.\(DotCommandCatalog.shortestAbbreviation(of: name, longerThan: typed.name.count))'"
                    + " is '.\(name)'; see .help)")
        case .refused(let name, nil):
            throw DotCommandError(
                "'.\(typed.name)' is too short for '.\(name)': sqlite3 takes"
                    + " '.\(DotCommandCatalog.shortestAbbreviation(of: name))' or longer (see .help)")
        }
        let command = typed.named(row.name)
        if settings.isSafe, row.isRefusedWhenSafe { throw DotCommandError(".\(row.name) is not allowed with --safe") }
        if let refusal = DatabaseAddress(databaseName).refusal(of: "." + row.name, support: row.cluster) {
            throw DotCommandError(refusal)
        }
        guard row.arity.contains(command.arguments.count) else { throw DotCommandError(row.usageMessage) }
        let outcome = try row.run(self, command)
        if outcome != .quit { try output.flush() }
        return outcome
    }

    // MARK: - Quitting

    /// Whether the shell may end now (`.quit`, `.exit`, Ctrl-D; see ``mayDropTransaction(by:)``).
    func requestQuit() -> Bool {
        mayDropTransaction(by: "quit")
    }

    /// `.exit [CODE]`: as `.quit`, and a CODE that sqlite3 reads as a number other than 0 becomes
    /// the exit status and ends every `.read` file too (sqlite3 calls `exit(CODE)`).
    func requestExit(code: String?) -> Bool {
        guard requestQuit() else { return false }
        let number = code.map(DotCommandLine.integerValue) ?? 0
        // exit() keeps the low byte: `.exit -1` is 255, `.exit 300` is 44, as in sqlite3.
        if number != 0 { requestedExitStatus = Int32(truncatingIfNeeded: number) & 0xff }
        return true
    }

    /// Whether `action` (`quit`, `.open`) may end the connection's open transaction, if any. A person
    /// is warned once and must ask again (then it is rolled back); piped input rolls it back with a
    /// warning.
    func mayDropTransaction(by action: String) -> Bool {
        guard (try? connection.isAutocommit) == false else { return true }
        if isInteractive, transactionWarning != action {
            transactionWarning = action
            io.printError(
                "cellar: warning: a transaction is open; COMMIT or ROLLBACK it, or \(action) again to roll it back")
            return false
        }
        try? connection.execute("ROLLBACK")
        io.printError("cellar: warning: the open transaction was rolled back")
        return true
    }

    // MARK: - Settings

    /// The first argument read as sqlite3 reads a boolean: `on`/`yes`/`true`, `off`/`no`/`false`, or
    /// a number (non-zero is on); anything else is off, with a warning, as sqlite3 assumes "no".
    func onOff(_ command: DotCommandLine) -> Bool {
        let argument = command.arguments.first ?? ""
        switch argument.lowercased() {
        case "on", "yes", "true": return true
        case "off", "no", "false": return false
        default:
            let digits = argument.hasPrefix("0x") ? argument.dropFirst(2) : Substring(argument)
            let radix = argument.hasPrefix("0x") ? 16 : 10
            if !digits.isEmpty, let number = Int64(digits, radix: radix) { return number & 0xffff_ffff != 0 }
            io.printError("cellar: warning: .\(command.name): '\(argument)' is not on or off; taken as off")
            return false
        }
    }

    func setMode(_ command: DotCommandLine) throws {
        let names = OutputMode.allCases.map(\.rawValue) + ["auto", "tabs"]
        guard let name = command.arguments.first else {
            writeOutput("current output mode: \(settings.isAutoMode ? "auto" : settings.render.mode.rawValue)")
            return
        }
        // `.mode auto`: a box when the rows fit the terminal, `line` when they would not (psql's `\x auto`).
        if name.lowercased() == "auto" {
            settings.isAutoMode = true
            settings.render.mode = .box
            settings.render.columnSeparator = nil
            settings.render.rowSeparator = nil
            return
        }
        // sqlite3's `tabs` is `list` with a tab between cells (its `.show` says `list`).
        if name.lowercased() == "tabs" {
            settings.isAutoMode = false
            settings.render.mode = .list
            settings.render.columnSeparator = "\t"
            settings.render.rowSeparator = nil
            return
        }
        guard let mode = OutputMode(rawValue: name.lowercased()) else {
            var message = "unknown mode '\(name)'"
            if let suggestion = NearMiss.suggestion(for: name, among: names) { message += "; did you mean '\(suggestion)'?" }
            throw DotCommandError(message + " (modes: \(names.joined(separator: ", ")))")
        }
        settings.isAutoMode = false
        settings.render.mode = mode
        // As in sqlite3, a mode brings its own separators back.
        settings.render.columnSeparator = nil
        settings.render.rowSeparator = nil
        // `.mode insert TABLE` names the table the INSERT statements target, as in sqlite3.
        if mode == .insert { settings.render.insertTableName = command.arguments.dropFirst().first ?? "table" }
    }

    func setMaxRows(_ command: DotCommandLine) throws {
        guard let argument = command.arguments.first else {
            let fixed = settings.maxRows.map(String.init) ?? "all"
            let human = "\(ShellSettings.defaultMaxRows) in box, table, markdown and line; all in the other modes"
            writeOutput(
                "maxrows: "
                    + (settings.fitsMaxRowsToWindow
                        ? "auto (as many as fit the window)" : settings.limitsHumanModes ? human : fixed))
            return
        }
        if argument.lowercased() == "all" {
            settings.maxRows = nil
            settings.fitsMaxRowsToWindow = false
        } else if argument.lowercased() == "auto" {
            settings.maxRows = settings.maxRows ?? ShellSettings.defaultMaxRows
            settings.fitsMaxRowsToWindow = true
        } else if let count = Int(argument), count > 0 {
            settings.maxRows = count
            settings.fitsMaxRowsToWindow = false
        } else {
            throw DotCommandError("Usage: .maxrows N|all|auto (N a whole number above 0)")
        }
        settings.limitsHumanModes = false
    }

    func manageParameters(_ command: DotCommandLine) throws {
        let arguments = command.arguments
        switch arguments.first {
        case "set" where arguments.count == 3:
            let name = arguments[1]
            guard let first = name.first, ":@$?".contains(first), name.count > 1 else {
                throw DotCommandError("parameter names start with :, @, $ or ? (such as :name)")
            }
            parameters[name] = QueryParameters.value(of: arguments[2])
        case "list" where arguments.count == 1:
            for name in parameters.keys.sorted() {
                writeOutput("\(shown(name)) \(shown(Self.literal(parameters[name] ?? .null)))")
            }
        case "clear" where arguments.count == 1, "init" where arguments.count == 1:
            parameters.removeAll()
        case "unset" where arguments.count == 2:
            parameters[arguments[1]] = nil
        default:
            throw DotCommandError("Usage: .parameter set NAME VALUE | list | clear | unset NAME")
        }
    }

    private static func literal(_ value: Value) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .text(let text): "'" + text.replacingAll("'", with: "''") + "'"
        case .blob(let bytes): "X'" + HexEncoding.string(bytes) + "'"
        }
    }

    private static func unknown(_ name: String) -> DotCommandError {
        var message = "unknown command '.\(name)'"
        if let suggestion = NearMiss.suggestion(for: name, among: DotCommandCatalog.names) {
            message += "; did you mean '.\(suggestion)'?"
        }
        return DotCommandError(message + " (see .help)")
    }

    /// `.help [TOPIC]`: every command, or (as sqlite3) those whose name starts with TOPIC, else
    /// those whose help mentions it, else `Nothing matches 'TOPIC'`.
    func showHelp(_ command: DotCommandLine) {
        var rows = DotCommandCatalog.entries
        if let topic = command.arguments.first.map({ $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }) {
            rows = rows.filter { ([$0.name] + $0.aliases).contains { $0.hasPrefix(topic) } }
            if rows.isEmpty { rows = DotCommandCatalog.entries.filter { $0.help.lowercased().contains(topic.lowercased()) } }
            guard !rows.isEmpty else { return writeOutput("Nothing matches '\(shown(topic))'") }
        }
        let width = rows.map { $0.name.count + $0.usage.count + 2 }.max() ?? 0
        for entry in rows {
            let head = "." + entry.name + (entry.usage.isEmpty ? "" : " " + entry.usage)
            writeOutput(head + String(repeating: " ", count: max(width - head.count, 0) + 2) + entry.help)
        }
    }

    // MARK: - Files

    /// Runs the start-up file (`--init FILE`, `~/.cellarrc`) as `.read` would; a file that cannot be
    /// read is reported, and the shell starts anyway.
    func runStartupFile(_ path: String) {
        do {
            _ = try readFile(path)
        } catch let error as DotCommandError {
            reportError(error.message)
        } catch let error as MigrationError {
            guard let diagnostic = error.diagnostic else { return reportError(error.description) }
            report(diagnostic)
        } catch {
            reportError(String(describing: error))
        }
    }

    func readFile(_ path: String) throws -> DotCommandOutcome {
        guard readDepth < 25 else { throw DotCommandError(".read files nest too deeply") }
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(path)
        } catch {
            throw DotCommandError("cannot read '\(path)': \(error)")
        }
        // Not UTF-8 (UTF-16, a NUL, a bad sequence): an error naming the place, and nothing runs.
        let text = try SQLFileDecoder.decode(bytes, path: path)
        let errorsBefore = errorCount
        readDepth += 1
        defer { readDepth -= 1 }
        _ = runLines(of: LineReader(BufferSource(text)), path: path)
        if requestedExitStatus != nil { return .quit }
        return errorCount == errorsBefore ? .succeeded : .failed
    }

    func open(_ command: DotCommandLine) throws {
        let path = command.arguments.first ?? ""
        // Closing the connection would roll the transaction back: warn first, as `.quit` does.
        guard mayDropTransaction(by: ".open") else { return }
        let opened: any SQLConnection
        do {
            opened = try openDatabase(path)
            try opened.execute("SELECT count(*) FROM sqlite_schema")
        } catch let error as SQLiteError {
            throw DotCommandError("cannot open '\(path)': \(error.message)")
        } catch let error as DqliteError {
            throw DotCommandError("cannot open '\(path)': \(error)")
        }
        connection = opened
        openingSchema = .unread
    }
}

extension DotCommandLine {
    /// The argument as one LIKE pattern (nil when none); several words are taken as typed, so
    /// `.schema x' OR '1'='1` is a pattern that matches nothing, bound as a parameter like every pattern.
    var pattern: String? { arguments.count > 1 ? rest : arguments.first }
}
