import CellarKit

/// What one database of a fleet came to, with its line of text and its JSON object.
struct FleetOutcome {
    /// How it ended.
    enum Result {
        /// Migrations or seeds were applied (`migrate`, `setup`).
        case migrated
        /// Nothing was pending (`migrate`, `setup`), or nothing is to do (`status`).
        case current
        /// `status` found work to do.
        case withWork
        /// `verify` passed.
        case verified
        /// An error; the database is as the single-database command leaves it after that error.
        case failed
    }

    let path: String
    let result: Result
    let record: FleetRecord
    /// The error as the single-database command reports it (several lines for a located one).
    let errorText: String
    /// What the command wrote on standard output (`status --format json`'s object).
    let output: String

    var isFailure: Bool { result == .failed }

    /// Runs `command` on the database at `path` as `cellar … -d PATH` would, capturing its streams.
    static func run(_ command: any Command.Type, on path: String, invocation: Invocation) -> FleetOutcome {
        var configuration = invocation.configuration
        configuration.databasePath = path
        configuration.databaseArguments = [path]
        configuration.usesColor = false
        let output = BufferSink()
        let error = BufferSink()
        let io = IO(input: BufferSource(""), output: output, error: error, environment: invocation.io.environment)
        let record = FleetRecord()
        let single = Invocation(
            arguments: invocation.arguments, configuration: configuration, io: io, record: record,
            fleetFiles: invocation.fleetFiles)
        let status: ExitStatus
        do {
            status = try FlagAdvice.namingLocks(configuration) { try command.run(single) }
        } catch {
            status = ErrorReporter(io: io, usesColor: false).report(error)
        }
        let result: Result
        switch (status, command.spec.name) {
        case (.success, "verify"): result = .verified
        case (.success, "status"), (.workPending, "status"): result = record.workToDo > 0 ? .withWork : .current
        case (.success, _): result = record.appliedMigrations + record.appliedSeeds > 0 ? .migrated : .current
        default: result = .failed
        }
        return FleetOutcome(path: path, result: result, record: record, errorText: error.text, output: output.text)
    }

    /// An entry of the list that is no database, refused without opening it.
    static func refused(_ path: String, problem: String) -> FleetOutcome {
        FleetOutcome(path: path, result: .failed, record: FleetRecord(), errorText: "cellar: error: \(problem)\n", output: "")
    }

    // MARK: - Text

    /// `PATH: applied 3 migrations; now at version 7`, or `PATH: error: …` with the located error below.
    var text: String {
        let name = ControlCharacterEscaping.escape(path)
        guard result != .failed else { return "\(name): error: \(errorSummary)\n" + errorDetail }
        return "\(name): \(ControlCharacterEscaping.escape(description))\n"
    }

    private var description: String {
        let version = record.version ?? 0
        var text: String
        switch result {
        case .migrated:
            text = "applied \(MigrationProgress.count(record.appliedMigrations, "migration"))"
            if record.appliedSeeds > 0 { text += " and \(MigrationProgress.count(record.appliedSeeds, "seed"))" }
            text += "; now at version \(version)"
        case .current:
            text = record.workToDo == 0 && record.verifiedMigrations == 0 ? "already current at version \(version)" : ""
        case .withWork: text = "at version \(version); \(record.workToDo) to do"
        case .verified: text = "verified \(MigrationProgress.count(record.verifiedMigrations, "applied migration"))"
        case .failed: text = ""
        }
        if let backup = record.backupPath { text += "; backup \(backup)" }
        return text
    }

    /// The error's one-line message: the last `cellar: error:` line, or a located error's message.
    var errorSummary: String {
        let lines = errorText.split(separator: "\n").map(String.init)
        if let line = lines.last(where: { $0.hasPrefix("cellar: error: ") }) {
            return String(line.dropFirst("cellar: error: ".count))
        }
        if let located = lines.first(where: { $0.contains(": error: ") }), let range = located.firstRange(of: ": error: ") {
            return String(located[range.upperBound...])
        }
        return lines.last ?? "failed"
    }

    /// The reporter's lines other than the summary, indented below it.
    private var errorDetail: String {
        let lines = errorText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let detail = lines.filter { !$0.isEmpty && !$0.hasPrefix("cellar: error: ") }
        return detail.map { "    \($0)\n" }.joined()
    }

    // MARK: - JSON

    /// One object: `{"database": PATH, "result": …, …}`; `status` gives its own report object.
    var json: String {
        if result != .failed, !output.isEmpty, output.hasPrefix("{") {
            return String(output.dropLast(output.hasSuffix("\n") ? 1 : 0))
        }
        let resultName: String
        switch result {
        case .migrated: resultName = "migrated"
        case .current: resultName = "current"
        case .withWork: resultName = "work_to_do"
        case .verified: resultName = "verified"
        case .failed: resultName = "failed"
        }
        var members = [
            ("database", JSONString.quoted(path)), ("result", JSONString.quoted(resultName)),
            ("version", record.version.map { String($0) } ?? "null"),
            ("applied_migrations", String(record.appliedMigrations)), ("applied_seeds", String(record.appliedSeeds)),
            ("backup", record.backupPath.map(JSONString.quoted) ?? "null"),
        ]
        members.append(("error", result == .failed ? JSONString.quoted(errorSummary) : "null"))
        return "{" + members.map { "\(JSONString.quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }
}
