import CellarDqlite
import CellarKit
import Glibc

/// The state of one `cellar shell`: the connection, the settings the dot-commands change, where
/// results go, and whether anything has failed. Both the interactive loop and piped input feed it.
///
/// The connection is CellarKit's engine seam: a database file, or a dqlite database through its
/// cluster's leader. SQL, rendering and the dot-commands that read the schema run the same on both;
/// those that need a file say why they cannot run on a cluster (each row of ``DotCommandCatalog``
/// declares which).
final class ShellSession {
    /// What the caller should do after a piece of input ran.
    enum Flow: Equatable {
        /// Read on.
        case proceed
        /// Stop reading: `.quit`, or an error with `.bail on`.
        case stop
    }

    /// The open connection, on either engine (`.open` replaces it).
    var connection: any SQLConnection
    /// The standard streams.
    let io: IO
    /// The dot-command settings.
    var settings: ShellSettings
    /// Values bound to named parameters (`.parameter set`).
    var parameters: [String: Value] = [:]
    /// How many statements and commands have failed.
    private(set) var errorCount = 0
    /// Whether any statement or command has failed.
    var hadError: Bool { errorCount > 0 }
    /// The exit status `.exit CODE` asked for (nil: the shell's own).
    var requestedExitStatus: Int32?
    /// The file `.log` writes SQLite's messages to, if any.
    var logDescriptor: Int32?
    /// Whether `.log` sends SQLite's messages somewhere.
    var isLogging = false
    /// The SQL that ran last (what `.edit` opens).
    var lastStatement: String?
    /// Told the text `.edit` runs (the interactive shell keeps it in its history).
    var onEdited: ((String) -> Void)?
    /// The half-typed statement the next `.edit` opens instead of the last one.
    var pendingEdit: String?
    /// How many statements Ctrl-C has interrupted.
    private(set) var interruptCount = 0
    /// Whether input comes from a person at a terminal (who can be asked before quitting).
    let isInteractive: Bool
    /// Told when a statement starts and stops, so that Ctrl-C can interrupt it.
    var interruptWatcher: SignalWatcher?
    /// Where results go when `.output FILE` redirects them.
    var redirection: FileDescriptorSink?
    /// The file `.output` or `.once` names (for `.show`).
    var redirectionPath: String?
    /// Commands left before a `.once` file closes (0: no `.once` pending).
    var onceCountdown = 0
    /// How deep `.read` files are nested.
    var readDepth = 0
    /// What (`quit`, `.open`) was last warned that it would roll back the open transaction; doing
    /// it again right away rolls the transaction back.
    var transactionWarning: String?
    /// The schema the database had when the session opened it, read before the first statement runs
    /// (`.diff` and `.migration` plan from it; `.open` starts again).
    var openingSchema = OpeningSchema.unread
    /// The settings `cellar` runs with: busy timeout, colour, the migrations folder for `.migrations`.
    let configuration: Configuration
    /// The authorizer policy of `--safe`, when it is on (the connection's own, so `.open` keeps it).
    var safeMode: ConnectionPolicy? { connection.safeModePolicy }

    /// Creates a session on an open connection.
    init(connection: any SQLConnection, io: IO, settings: ShellSettings, configuration: Configuration) throws {
        self.connection = connection
        self.io = io
        self.settings = settings
        self.isInteractive = io.isInputTerminal
        self.configuration = configuration
    }

    /// The connection as a database file, for the dot-commands that need SQLite's C API on it (see
    /// ``SQLConnection/localDatabase``); nil on a dqlite database.
    var fileDatabase: Database? { connection.localDatabase }

    /// The database file, for a dot-command that needs one.
    ///
    /// - Throws: ``DotCommandError`` on a dqlite database (``DotCommandCatalog`` refuses those
    ///   commands before they run, with their own reason).
    var database: Database {
        get throws {
            guard let fileDatabase else {
                throw DotCommandError("this needs a database file, and \(databaseName) is a dqlite database")
            }
            return fileDatabase
        }
    }

    /// The database as the user named it: a file's path, or a dqlite URL.
    var databaseName: String {
        connection.name
    }

    /// How long the connection waits for another connection's lock now (`--busy-timeout`, then `.timeout`).
    var busyTimeout: Int32 { fileDatabase?.busyTimeout ?? configuration.busyTimeout }

    /// Where results are written now: standard output or the `.output` file.
    var output: any ByteSink { redirection ?? io.output }

    /// Whether results reach a terminal (so text from the database must be escaped).
    var isOutputTerminal: Bool { redirection == nil && io.isOutputTerminal }

    /// Opens `path` the way the shell opens every database: as the command line opens it, defensive,
    /// with the file functions and, under `--safe`, its refusals; a `dqlite://` URL through the
    /// cluster's leader, waiting at most the busy timeout for one.
    func openDatabase(_ path: String) throws -> any SQLConnection {
        let opener = DatabaseOpener(configuration)
        let options = opener.options(mode: .readWriteCreate, defensive: true, fileFunctions: true, safe: settings.isSafe)
        do {
            // sqlite3's shell offers sqlar_compress and sqlar_uncompress to SQL too.
            return try opener.connect(path, options: options, preparingFile: SQLArchiveFunctions.register)
        } catch let error as UsageError {
            throw DotCommandError(error.message)
        }
    }

    /// Writes what is still buffered and closes an `.output` file.
    func finish() {
        if isLogging { closeLog() }
        try? output.flush()
        if let redirection { close(redirection.descriptor) }
        redirection = nil
    }

    // MARK: - Input

    /// Runs every line of `reader`; `path` names the input in error messages.
    ///
    /// - Returns: `.stop` when `.quit` or a `.bail on` error ended the input early.
    func runLines(of reader: LineReader, path: String) -> Flow {
        var accumulator = StatementAccumulator()
        var lineNumber = 0
        let interruptsBefore = interruptCount
        // Ctrl-C stops a whole `.read` file, not just its running statement.
        while interruptCount == interruptsBefore {
            let next: LineReader.Line?
            do {
                next = try reader.nextLine()
            } catch {
                reportError("cannot read \(path): \(error)")
                return .stop
            }
            guard let next else { return handle(accumulator.finish(), path: path, lineNumber: lineNumber) }
            lineNumber += 1
            switch next {
            case .text(let line):
                let flow = handle(accumulator.add(line, lineNumber: lineNumber), path: path, lineNumber: lineNumber)
                if flow == .stop { return .stop }
            case .invalid(let byte, let prefix, let text):
                let message = byte == 0 ? TextEncodingCheck.nulMessage : TextEncodingCheck.invalidByteMessage(byte)
                report(
                    Diagnostic(
                        path: path, location: SourceLocation(line: lineNumber, column: prefix.unicodeScalars.count + 1),
                        sourceLine: prefix + "\u{FFFD}", message: message,
                        notes: ["the statement this line belongs to is skipped, up to where it ends"]))
                if bailsHere { return .stop }
                _ = accumulator.addUnreadable(text, lineNumber: lineNumber)
            }
        }
        return .stop
    }

    /// Runs what the accumulator made of a line.
    func handle(_ outcome: StatementAccumulator.Outcome, path: String, lineNumber: Int) -> Flow {
        switch outcome {
        case .pending, .skipped:
            return .proceed
        case .dotCommand(let line):
            echo(line)
            defer { countDownOnce() }
            let succeeded: Bool
            switch runDotCommand(line, path: path, lineNumber: lineNumber) {
            case .quit: return .stop
            case .succeeded: succeeded = true
            case .failed: succeeded = false
            }
            return succeeded || !bailsHere ? .proceed : .stop
        case .sql(let sql, let firstLine):
            transactionWarning = nil
            lastStatement = sql
            echo(sql)
            defer { countDownOnce() }
            return execute(sql, path: path, firstLine: firstLine) || !bailsHere ? .proceed : .stop
        }
    }

    /// `.bail` stops piped input and `.read` files, not a person typing (as in sqlite3).
    private var bailsHere: Bool { settings.bails && (!isInteractive || readDepth > 0) }

    // MARK: - SQL

    /// Runs every statement of `sql`, rendering results.
    ///
    /// - Returns: whether all of them succeeded; the first failure is reported and stops the rest.
    @discardableResult
    func execute(_ sql: String, path: String, firstLine: Int) -> Bool {
        captureOpeningSchema()
        return execute(sql, on: connection, path: path, firstLine: firstLine)
    }

    private func execute(_ sql: String, on connection: some SQLConnection, path: String, firstLine: Int) -> Bool {
        let succeeded = try? connection.withStatements(in: sql) { cursor in
            execute(&cursor, on: connection, sql: sql, path: path, firstLine: firstLine)
        }
        return succeeded ?? false
    }

    private func execute<Connection: SQLConnection>(
        _ cursor: inout StatementCursor<Connection>, on connection: Connection, sql: String, path: String, firstLine: Int
    ) -> Bool {
        while true {
            let prepared: StatementCursor<Connection>.Prepared?
            do {
                prepared = try cursor.next()
            } catch {
                report(error, in: sql, path: path, firstLine: firstLine, offset: nil)
                return false
            }
            guard let prepared else { return true }
            let clock = RunClock()
            let changesBefore = try? connection.totalChanges
            let wasInTransaction = (try? connection.isAutocommit) == false
            do {
                try bindParameters(prepared.statement)
                watchInterrupts(of: connection)
                defer { stopWatchingInterrupts(of: connection) }
                try showPlan(of: prepared.statement, on: connection)
                if try !printExplained(prepared.statement) { try printResult(of: prepared.statement) }
            } catch {
                try? output.flush()
                report(error, in: sql, path: path, firstLine: firstLine, offset: prepared.startOffset)
                if (error as? SQLiteError)?.isInterrupt == true {
                    warnIfStoppingRowsEndedTransaction(wasOpen: wasInTransaction, on: connection)
                }
                return false
            }
            reportAfterStatement(prepared.statement, on: connection, changesBefore: changesBefore, clock: clock)
        }
    }

    /// Writes the result of `statement`, through the pager when `.pager` is on and it is taller than
    /// the screen. With the pager, `.maxrows auto` leaves no row out: the pager is for results taller
    /// than the window (a fixed `.maxrows N` still applies).
    private func printResult(of statement: some SQLStatement) throws {
        guard let pager = pagerSink() else {
            if let note = try printResult(of: statement, to: output) { io.printError(note) }
            return
        }
        let note: String?
        do {
            note = try printResult(of: statement, to: pager, fittingWindow: false)
        } catch is PagerSink.Closed {
            // The user left the pager before the last row: the rest is not wanted, and that is no error.
            note = nil
            stopReadingRows(of: statement)
        } catch {
            try pager.finish()
            throw error
        }
        try pager.finish()
        if let note { io.printError(note) }
    }

    /// Renders `statement` into `sink`; returns the line saying how many rows a machine mode left out
    /// (for standard error, after the result).
    private func printResult(
        of statement: some SQLStatement, to sink: any ByteSink, fittingWindow: Bool = true
    ) throws -> String? {
        var options = settings.render
        options.escapesControlCharacters = isOutputTerminal
        if settings.isAutoMode, isOutputTerminal { options.maximumGridWidth = io.terminalSize()?.columns }
        let renderer = ResultRenderer(sink: sink, options: options)
        var note: String?
        var maxRows = settings.fitsMaxRowsToWindow && !fittingWindow ? nil : settings.maxRows
        if maxRows == nil, settings.limitsHumanModes, options.mode.isHuman { maxRows = ShellSettings.defaultMaxRows }
        if let maxRows, statement.columnCount > 0 {
            // At a terminal, the lines of its window but the prompt's.
            let window = settings.fitsMaxRowsToWindow && isOutputTerminal ? io.terminalSize()?.rows : nil
            let summary =
                try window.map { try renderer.render(statement: statement, fittingLines: $0 - 1) }
                ?? renderer.render(statement: statement, limit: maxRows)
            try renderer.flush()
            // Human modes say it in the result; machine modes must stay parseable, so it goes to stderr.
            if summary.omittedRowCount > 0, !options.mode.isHuman {
                let shown = summary.rowCount - summary.omittedRowCount
                note =
                    "(\(summary.rowCount) rows, \(summary.omittedRowCount) not shown: the first \(shown / 2 + shown % 2)"
                    + " and the last \(shown / 2) are; .maxrows all shows every row)"
            }
        } else {
            try renderer.render(statement: statement)
            try renderer.flush()
        }
        try sink.flush()
        return note
    }

    private func bindParameters(_ statement: some SQLStatement) throws {
        guard statement.parameterCount > 0 else { return }
        for index in 1...statement.parameterCount {
            guard let name = statement.parameterName(at: index), let value = parameters[name] else { continue }
            try statement.bind(value, at: index)
        }
    }

    private func reportAfterStatement(
        _ statement: some SQLStatement, on connection: some SQLConnection, changesBefore: Int?, clock: RunClock
    ) {
        switch settings.changes {
        case .sqlite3 where !statement.isReadOnly:
            let total = (try? connection.totalChanges) ?? 0
            let changes = statementChanges(on: connection, total: total, before: changesBefore)
            writeOutput("changes: \(changes)   total_changes: \(total)")
        case .count where !statement.isReadOnly && isOutputTerminal && readDepth == 0:
            // Statements typed, not those of a `.read` file (a dump would print a line for each INSERT).
            // The total moves only when this statement (or its triggers) changed rows; sqlite3_changes
            // alone still holds the last INSERT, UPDATE or DELETE's count after a CREATE TABLE.
            let total = (try? connection.totalChanges) ?? 0
            guard let changesBefore, total != changesBefore else { break }
            let changes = statementChanges(on: connection, total: total, before: changesBefore)
            if changes > 0 { writeOutput(changes == 1 ? "1 row changed" : "\(FleetSummary.grouped(changes)) rows changed") }
        default:
            break
        }
        if settings.showsTimer {
            writeOutput(clock.summary())
        }
        if settings.showsStats, let counters = statement.statusCounters { try? showStats(counters) }
        try? output.flush()
    }

    // MARK: - Reporting

    /// Writes a line of results (or of a dot-command's answer) to the current output.
    func writeOutput(_ line: String) {
        try? output.write(line + "\n")
    }

    /// Text from a database or a user, made safe for the terminal if output goes to one.
    func shown(_ text: String) -> String {
        isOutputTerminal ? ControlCharacterEscaping.escape(text) : text
    }

    /// Like ``shown(_:)`` for text whose line breaks and tabs are layout (a `CREATE` statement): those
    /// stay, every other control character is escaped.
    func shownKeepingLayout(_ text: String) -> String {
        guard isOutputTerminal else { return text }
        return text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { line in
                line.split(separator: "\t", omittingEmptySubsequences: false)
                    .map { ControlCharacterEscaping.escape(String($0)) }
                    .joined(separator: "\t")
            }
            .joined(separator: "\n")
    }

    /// Reports a failure that has no place in the input.
    func reportError(_ message: String) {
        errorCount += 1
        io.printError("cellar: error: \(ControlCharacterEscaping.escape(message))")
    }

    /// Reports an error about a file (a migration's, for `.migrations`) as compilers do.
    func report(_ diagnostic: Diagnostic) {
        errorCount += 1
        let diagnostic =
            diagnostic.isLockContention
            ? FlagAdvice.namingLock(in: diagnostic, path: databaseName, timeout: busyTimeout) : diagnostic
        io.printError(DiagnosticFormatter(usesColor: configuration.usesColor).format(diagnostic))
    }

    /// Reports a failure at a line of the input (a dot-command's).
    func reportError(_ message: String, path: String, line: Int, text: String) {
        errorCount += 1
        let diagnostic = Diagnostic(
            path: path, location: SourceLocation(line: line, column: 1), sourceLine: text, message: message)
        io.printError(DiagnosticFormatter(usesColor: configuration.usesColor).format(diagnostic))
    }

    private func report(_ error: any Error, in sql: String, path: String, firstLine: Int, offset: Int?) {
        errorCount += 1
        guard let error = error as? SQLiteError else {
            io.printError("cellar: error: \(ControlCharacterEscaping.escape(String(describing: error)))")
            return
        }
        if error.isInterrupt {
            interruptCount += 1
            // The terminal echoed ^C without a line break.
            io.printError(io.isErrorTerminal ? "\ninterrupted" : "interrupted")
            return
        }
        var message = error.message
        if error.isLockContention { message = FlagAdvice.lockedStatementMessage(path: databaseName, timeout: busyTimeout) }
        if let safeMode, let refusal = safeMode.lastRefusal.map(FlagAdvice.message(for:)) {
            message += " (\(refusal))"
            safeMode.clearRefusal()
        }
        let diagnostic = Diagnostic(
            error, path: path, in: SourceText(sql, firstLine: firstLine), statementStart: offset ?? 0, message: message)
        io.printError(DiagnosticFormatter(usesColor: configuration.usesColor).format(diagnostic))
        reconnectIfLost(after: error)
    }
}

@available(*, unavailable)
extension ShellSession: Sendable {}
