import CellarKit
import Glibc

/// sqlite3's `.import`.
extension ShellSession {
    /// `.import [--csv|--ascii] [--skip N] [--schema S] FILE|'|COMMAND' TABLE`: the records of FILE
    /// (or of what COMMAND writes) into TABLE, in one transaction, streamed; TABLE is created from the
    /// header row when it does not exist.
    ///
    /// Fields are split on `,` with `--csv` or in csv mode, on 0x1F with records ending in 0x1E and
    /// no quoting with `--ascii` or in ascii mode, else on the column separator in effect
    /// (`.separator`, or the mode's). An unquoted field equal to `.nullvalue` (empty by default) is
    /// NULL; `""` is the empty string. On a terminal, a progress line on standard error shows the bytes
    /// read of the file's size after the first second.
    func importFile(_ command: DotCommandLine) throws {
        captureOpeningSchema()
        let request = try ImportRequest(command.arguments)
        let isASCII =
            request.isASCII || (!request.isCSV && settings.render.mode == .ascii && settings.render.columnSeparator == nil)
        let separatorText =
            request.isCSV
            ? "," : isASCII ? "\u{1F}" : settings.render.columnSeparator ?? settings.render.mode.defaultColumnSeparator
        guard separatorText.utf8.count == 1, let separator = separatorText.utf8.first, separator != UInt8(ascii: "\n") else {
            throw DotCommandError(".import splits fields on one byte; the column separator is \(Self.quoted(separatorText))")
        }
        var options = ImportOptions(
            separator: separator, skippedRecords: request.skippedRecords, nullText: settings.render.nullValue)
        options.schema = request.schema
        if isASCII {
            options.recordSeparator = 0x1E
            options.honoursQuotes = false
        }
        let summary: ImportSummary
        if request.path.hasPrefix("|") {
            summary = try importOutput(of: String(request.path.dropFirst()), into: request.table, options: options)
        } else {
            let descriptor = Glibc.open(request.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw DotCommandError("cannot read '\(request.path)': \(SystemError(operation: "open", code: errno))")
            }
            defer { Glibc.close(descriptor) }
            var source: any ByteSource = FileDescriptorSource(descriptor: descriptor)
            let progress = io.isErrorTerminal && !configuration.isQuiet ? ProgressLine(io: io) : nil
            if let progress {
                let size = ProgressLine.size(of: descriptor)
                source = ProgressLine.counting(source) { total in
                    progress.update { ProgressLine.text(".import \(request.path)", bytes: total, of: size, seconds: $0) }
                }
            }
            defer { progress?.clear() }
            summary = try connection.importRecords(from: source, path: request.path, into: request.table, options: options)
            progress?.clear()
        }
        if isInteractive {
            let created = summary.createdTable ? " (created from the header row)" : ""
            io.printError(shown("imported \(summary.rowCount) rows into \(request.table)\(created)"))
        }
    }

    /// `.import '|COMMAND' TABLE`: the records COMMAND (run with `/bin/sh -c`) writes; a command that
    /// fails after writing them is reported, and what it wrote stays imported.
    private func importOutput(of command: String, into table: String, options: ImportOptions) throws -> ImportSummary {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            throw DotCommandError("cannot run the command: \(SystemError(operation: "pipe", code: errno))")
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        let pid: pid_t
        do {
            pid = try Self.spawnShell(command, output: ends[1])
        } catch {
            Glibc.close(ends[0])
            Glibc.close(ends[1])
            throw error
        }
        Glibc.close(ends[1])
        let summary: ImportSummary
        do {
            defer { Glibc.close(ends[0]) }
            summary = try connection.importRecords(
                from: FileDescriptorSource(descriptor: ends[0]), path: "<|\(command)>", into: table, options: options)
        } catch {
            _ = Self.waitForExit(of: pid)
            throw error
        }
        let status = Self.waitForExit(of: pid)
        if status != 0 {
            io.printError("cellar: warning: '\(ControlCharacterEscaping.escape(command))' exited with status \(status)")
        }
        return summary
    }

    /// The exit status of `pid` once it ends (128 + the signal that ended it).
    private static func waitForExit(of pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// The arguments of `.import`.
private struct ImportRequest {
    var path = ""
    var table = ""
    var isCSV = false
    var isASCII = false
    var schema: String?
    var skippedRecords = 0

    static let usage = "Usage: .import [--csv|--ascii] [--skip N] [--schema S] FILE|'|COMMAND' TABLE"

    init(_ arguments: [String]) throws {
        var positionals: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--csv", "-csv":
                isCSV = true
                isASCII = false
            case "--ascii", "-ascii":
                isASCII = true
                isCSV = false
            case "--schema", "-schema":
                index += 1
                guard index < arguments.count else { throw DotCommandError("--schema needs a name (\(Self.usage))") }
                schema = arguments[index]
            case "--skip", "-skip":
                index += 1
                guard index < arguments.count, let count = Int(arguments[index]), count >= 0 else {
                    throw DotCommandError("--skip needs a whole number (\(Self.usage))")
                }
                skippedRecords = count
            case let option where option.hasPrefix("-") && option.count > 1:
                throw DotCommandError("unknown option '\(option)' (\(Self.usage))")
            default: positionals.append(argument)
            }
            index += 1
        }
        guard positionals.count == 2 else { throw DotCommandError(Self.usage) }
        path = positionals[0]
        table = positionals[1]
    }
}
