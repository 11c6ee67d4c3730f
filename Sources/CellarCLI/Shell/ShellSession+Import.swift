import CellarKit
import Glibc

/// sqlite3's `.import`.
extension ShellSession {
    /// `.import [--csv] [--skip N] FILE TABLE`: the records of FILE into TABLE, in one transaction,
    /// streamed; TABLE is created from the header row when it does not exist.
    ///
    /// Fields are split on `,` with `--csv` or in csv mode, else on the column separator in effect
    /// (`.separator`, or the mode's). An unquoted field equal to `.nullvalue` (empty by default) is
    /// NULL; `""` is the empty string. On a terminal, a progress line on standard error shows the bytes
    /// read of the file's size after the first second.
    func importFile(_ command: DotCommandLine) throws {
        captureOpeningSchema()
        let request = try ImportRequest(command.arguments)
        let separatorText =
            request.isCSV ? "," : settings.render.columnSeparator ?? settings.render.mode.defaultColumnSeparator
        guard separatorText.utf8.count == 1, let separator = separatorText.utf8.first, separator != UInt8(ascii: "\n") else {
            throw DotCommandError(".import splits fields on one byte; the column separator is \(Self.quoted(separatorText))")
        }
        let descriptor = Glibc.open(request.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw DotCommandError("cannot read '\(request.path)': \(SystemError(operation: "open", code: errno))")
        }
        defer { Glibc.close(descriptor) }
        let options = ImportOptions(
            separator: separator, skippedRecords: request.skippedRecords, nullText: settings.render.nullValue)
        var source: any ByteSource = FileDescriptorSource(descriptor: descriptor)
        let progress = io.isErrorTerminal && !configuration.isQuiet ? ProgressLine(io: io) : nil
        if let progress {
            let size = ProgressLine.size(of: descriptor)
            source = ProgressLine.counting(source) { total in
                progress.update { ProgressLine.text(".import \(request.path)", bytes: total, of: size, seconds: $0) }
            }
        }
        defer { progress?.clear() }
        let summary = try connection.importRecords(from: source, path: request.path, into: request.table, options: options)
        progress?.clear()
        if isInteractive {
            let created = summary.createdTable ? " (created from the header row)" : ""
            io.printError(shown("imported \(summary.rowCount) rows into \(request.table)\(created)"))
        }
    }
}

/// The arguments of `.import`.
private struct ImportRequest {
    var path = ""
    var table = ""
    var isCSV = false
    var skippedRecords = 0

    static let usage = "Usage: .import [--csv] [--skip N] FILE TABLE"

    init(_ arguments: [String]) throws {
        var positionals: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--csv", "-csv": isCSV = true
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
