import CellarKit
import Glibc

/// Runs `cellar` with `arguments` (without the program name) on `io`.
///
/// - Returns: the exit status: 0 success, 1 an SQL, migration or data error, 2 a usage error,
///   3 work pending (`status --exit-code`).
public func run(_ arguments: [String], io: IO) -> Int32 {
    // Only the options read before the command: every command's spec is built only where a list of them
    // is printed or searched, not to answer `--version` or to run one command.
    let parser = ArgumentParser(globalOptions: GlobalOptions.options + CommandTable.toolOptions)
    var status: ExitStatus
    var usesColor: Bool?
    do {
        status = try dispatch(arguments, parser: parser, io: io) { usesColor = $0.usesColor }
        // What is still buffered is part of the result: failing to write it fails the command.
        try io.output.flush()
    } catch let requested as RequestedExit {
        try? io.output.flush()
        try? io.error.flush()
        return requested.status
    } catch {
        // A command line that did not parse still says what `--color` it asked for.
        let color = usesColor ?? ColorChoice.lastGiven(in: arguments)?.forcedColor
        status = ErrorReporter(io: io, usesColor: color).report(error)
        try? io.output.flush()
    }
    // Standard error is where failures are reported; there is nowhere left to report its own.
    try? io.error.flush()
    FaultPause.reach("exit")
    return status.rawValue
}

/// Runs `cellar` with the process's own command line (`argv`, `argc`), the program name first.
///
/// - Returns: the exit status, as ``run(_:io:)`` returns it.
public func run(argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int32, io: IO) -> Int32 {
    let arguments = (1..<max(Int(count), 1)).map { index in
        argv[index].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
    }
    if let name = nonUTF8Setting() {
        let message =
            "environment variable \(name) is not valid UTF-8: cellar takes settings as UTF-8 text only, so it cannot "
            + "name that file or folder exactly"
        return refuse(message, io: io)
    }
    return run(commandLine: arguments, io: io)
}

/// The environment variables whose values cellar reads as paths and settings.
private let settingVariables: Set<String> = [
    "CELLAR_DATABASE", "DATABASE_URL", "CELLAR_MIGRATIONS", "CELLAR_SEEDS", "CELLAR_BUSY_TIMEOUT", "CELLAR_HISTORY",
]

/// The name of the first setting variable of this process whose value is not UTF-8, if any: read with
/// U+FFFD in place of its bad bytes, it would name another file, as an argument would.
private func nonUTF8Setting() -> String? {
    var pointer = environ
    while let entry = pointer.pointee {
        pointer += 1
        let bytes = Array(UnsafeRawBufferPointer(start: entry, count: strlen(entry)))
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
        let name = String(decoding: bytes[..<equals], as: UTF8.self)
        guard settingVariables.contains(name) else { continue }
        let value = Array(bytes[(equals + 1)...])
        if value.withUnsafeBufferPointer({ UTF8Validation.firstInvalidOffset(in: $0) }) != nil { return name }
    }
    return nil
}

/// Runs `cellar` with the bytes of its arguments (without the program name), as the process got them.
///
/// Arguments are UTF-8 text. One that is not (a file name in another encoding, a binary `--param`
/// value) is a usage error naming its position: read with U+FFFD in place of its bad bytes, it would
/// name another file or bind another value.
/// - Returns: the exit status, as ``run(_:io:)`` returns it; 2 for an argument that is not UTF-8.
public func run(commandLine arguments: [[UInt8]], io: IO) -> Int32 {
    for (index, bytes) in arguments.enumerated() {
        guard let bad = bytes.withUnsafeBufferPointer({ UTF8Validation.firstInvalidOffset(in: $0) }) else { continue }
        let shown = bytes.withUnsafeBufferPointer { buffer in
            let start = max(bad - 40, 0)
            let end = min(bad + 40, buffer.count)
            var escaped: [UInt8] = []
            ControlCharacterEscaping.escape(UnsafeBufferPointer(rebasing: buffer[start..<end]), into: &escaped)
            return (start > 0 ? "…" : "") + String(decoding: escaped, as: UTF8.self) + (end < buffer.count ? "…" : "")
        }
        let message =
            "argument \(index + 1) is not valid UTF-8 ('\(shown)', byte 0x\(HexEncoding.string([bytes[bad]]))): "
            + "cellar takes arguments as UTF-8 text only, so it cannot name that file or pass that value exactly"
        return refuse(message, io: io)
    }
    return run(arguments.map { String(decoding: $0, as: UTF8.self) }, io: io)
}

/// Reports a command line refused before it is parsed as a usage error on `io`.
/// - Returns: the exit status, 2.
private func refuse(_ message: String, io: IO) -> Int32 {
    let status = ErrorReporter(io: io, usesColor: nil).report(UsageError(message))
    try? io.error.flush()
    return status.rawValue
}

/// Parses and runs the command; `configured` learns the configuration once it is resolved.
private func dispatch(
    _ arguments: [String], parser: ArgumentParser, io: IO, configured: (Configuration) -> Void
) throws -> ExitStatus {
    let commandName = parser.commandName(in: arguments)
    guard let commandName else {
        let parsed = try parser.parse(arguments, for: nil)
        if parsed.has(VersionInfo.option) {
            try io.printOutput(VersionInfo.text)
            return .success
        }
        guard parsed.has(HelpFormatter.helpOption) || arguments.isEmpty else {
            throw UsageError("missing command; see 'cellar --help'")
        }
        // Bare `cellar` is a request for the overview, as in swift-argument-parser, dbmate and goose.
        try io.output.write(HelpFormatter.toolHelp(CommandTable.cellar))
        return .success
    }
    guard let command = CommandRegistry.command(named: commandName) else {
        throw CommandTable.cellar.unknownCommand(commandName)
    }
    let parsed = try parser.parse(arguments, for: command.spec)
    if parsed.has(HelpFormatter.helpOption) {
        try io.output.write(HelpFormatter.help(for: command.spec, globalOptions: GlobalOptions.options))
        return .success
    }
    // `-V` with a command asks for the version, as alone: the command does not run.
    if parsed.has(VersionInfo.option) {
        try io.printOutput(VersionInfo.text)
        return .success
    }
    try checkArgumentCount(parsed, for: command.spec)
    try command.spec.refuseConflicts(in: parsed)
    var io = io
    if let path = io.dotEnvPath { io.environment = DotEnvFile.merged(io.environment, file: path) }
    let configuration = try Configuration(parsed, environment: io.environment, isErrorTerminal: io.isErrorTerminal)
    configured(configuration)
    // The command line owns its process: journals kept between migrations skip their directory's sync
    // when its entry is already durable (see JournalDirectorySync). Installed before the command opens
    // anything, and only then: finding the VFS starts SQLite, which `--version` and `--help` never need.
    JournalDirectorySync.install()
    if let note = configuration.migrationsFallbackNote, !configuration.isQuiet,
        !Configuration.commandsWithoutMigrations.contains(command.spec.name)
    {
        io.printError("cellar: \(note)")
    }
    let invocation = Invocation(arguments: parsed, configuration: configuration, io: io)
    if let status = try configuration.address.runIfCluster(command, invocation) { return status }
    if command.spec.runsOnFleet, FleetRunner.isFleet(invocation, command: command.spec) {
        return try FleetRunner.run(command, invocation)
    }
    if configuration.databaseArguments.count > 1 {
        let fleetCommands = CommandRegistry.commands.map { $0.spec }.filter(\.runsOnFleet).map(\.name)
        let listed = fleetCommands.dropLast().joined(separator: ", ") + " and " + (fleetCommands.last ?? "")
        throw UsageError("'\(command.spec.name)' works on one database; fleets are for \(listed)")
    }
    if !Configuration.commandsWithoutDatabase.contains(command.spec.name) {
        try DatabaseOpener.refuseCompanion(configuration.databasePath)
    }
    return try FlagAdvice.namingLocks(configuration) { try command.run(invocation) }
}

private func checkArgumentCount(_ parsed: ParsedArguments, for spec: CommandSpec) throws(UsageError) {
    if parsed.positionals.count < spec.minimumArgumentCount {
        let missing = spec.arguments[parsed.positionals.count]
        throw UsageError("missing argument <\(missing.name)>", command: spec.name)
    }
    if let maximum = spec.maximumArgumentCount, parsed.positionals.count > maximum {
        throw UsageError("unexpected argument '\(parsed.positionals[maximum])'", command: spec.name)
    }
}
