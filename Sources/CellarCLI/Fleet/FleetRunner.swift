import CellarKit
import Glibc
import Synchronization

/// Runs one command (`setup`, `migrate`, `status`, `verify`) on every database of a fleet, `--jobs`
/// at a time on threads of its own. Each database is handled exactly as a single one: the command runs
/// in-process with that database as its configuration, its own connection, lock and transactions, and
/// its output captured; a line about it is written as it finishes, then a summary. Databases that fail
/// the same way are reported in full once and summed up before the summary (``FleetFailures``).
///
/// Memory stays bounded: the list is streamed and only counters outlive a database.
final class FleetRunner: @unchecked Sendable {
    // @unchecked: every mutable property is behind `state`'s lock, and the caller's streams are written
    // only while holding it; `invocation` and the flags are never changed after init.

    /// How the fleet stands, shared by the workers.
    private struct State {
        var list: DatabaseList
        var listError: (any Error)?
        var summary: FleetSummary
        var progress: FleetProgress
        var failures = FleetFailures()
    }

    private let command: any Command.Type
    private let invocation: Invocation
    private let state: Mutex<State>
    private let stop = CancellationFlag()
    private let isFailFast: Bool
    private let isJSON: Bool

    /// Whether `invocation` asks for a fleet: several databases, a pattern, `--databases-from`, or
    /// `--format json` on a command whose single-database output is text only.
    static func isFleet(_ invocation: Invocation, command: CommandSpec) -> Bool {
        let arguments = invocation.arguments
        return invocation.configuration.isFleet || arguments.value(of: FleetOptions.databasesFrom) != nil
            || (command.name != "status" && arguments.value(of: FleetOptions.format) != nil)
    }

    private init(command: any Command.Type, invocation: Invocation, list: DatabaseList, total: Int?) throws {
        self.command = command
        var invocation = invocation
        invocation.fleetFiles = FleetMigrationFiles()
        self.invocation = invocation
        let arguments = invocation.arguments
        isFailFast = arguments.has(FleetOptions.failFast)
        let format = arguments.value(of: FleetOptions.format) ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("option '--format' expects text or json, not '\(format)'", command: command.spec.name)
        }
        isJSON = format == "json"
        let showsProgress = invocation.io.isErrorTerminal && !invocation.configuration.isQuiet && !isJSON
        state = Mutex(
            State(
                list: list, summary: FleetSummary(command: command.spec.name),
                progress: FleetProgress(total: total, isShown: showsProgress)))
    }

    /// Runs `command` on the fleet `invocation` names.
    ///
    /// - Returns: 1 if any database failed, 3 for `status --exit-code` when one has work to do, 130 or
    ///   143 when a signal stopped the fleet, 0 otherwise.
    static func run(_ command: any Command.Type, _ invocation: Invocation) throws -> ExitStatus {
        let jobs = try jobCount(invocation)
        try refuseEmptyPatterns(invocation)
        let list = try databaseList(invocation)
        let total =
            invocation.io.isErrorTerminal && !invocation.configuration.isQuiet ? try countWithoutStandardInput(invocation) : nil
        let runner = try FleetRunner(command: command, invocation: invocation, list: list, total: total)
        SignalWatcher.shared.guardingFleet(runner.stop) { runner.runWorkers(jobs) }
        return try runner.finish()
    }

    /// Refuses a `-d` pattern that matches no file: it is most likely mistyped, and a fleet of none
    /// would pass (as `verify` of a database that does not exist fails instead of passing).
    private static func refuseEmptyPatterns(_ invocation: Invocation) throws {
        for argument in invocation.configuration.databaseArguments where GlobPattern.isPattern(argument) {
            guard try DatabaseList(arguments: [argument], lines: nil).next() == nil else { continue }
            throw CommandFailure(message: "no database matches '\(argument)'; nothing was done")
        }
    }

    private static func jobCount(_ invocation: Invocation) throws -> Int {
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        guard let text = invocation.arguments.value(of: FleetOptions.jobs) else { return cores }
        guard let jobs = Int(text), jobs >= 1, jobs <= 1024 else {
            throw UsageError("option '--jobs' expects a whole number from 1 to 1024, not '\(text)'")
        }
        return jobs
    }

    private static func databaseList(_ invocation: Invocation) throws -> DatabaseList {
        var arguments = invocation.configuration.databaseArguments
        var lines: LineSource?
        if let file = invocation.arguments.value(of: FleetOptions.databasesFrom) {
            if file == "-" {
                lines = LineSource(invocation.io.input)
            } else {
                let descriptor = open(file, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    throw CommandFailure(message: "cannot read the database list '\(file)': \(String(cString: strerror(errno)))")
                }
                lines = LineSource(FileDescriptorSource(descriptor: descriptor), closing: descriptor)
            }
        } else if arguments.isEmpty {
            arguments = [invocation.configuration.databasePath]
        }
        return DatabaseList(arguments: arguments, lines: lines)
    }

    /// The number of databases, for the progress line; nil when the list comes from standard input,
    /// which can be read only once.
    private static func countWithoutStandardInput(_ invocation: Invocation) throws -> Int? {
        guard invocation.arguments.value(of: FleetOptions.databasesFrom) != "-" else { return nil }
        let list = try databaseList(invocation)
        var count = 0
        while try list.next() != nil { count += 1 }
        return count
    }

    // MARK: - Workers

    private func runWorkers(_ jobs: Int) {
        var threads: [pthread_t] = []
        for _ in 0..<jobs {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let created = pthread_create(
                &thread, nil,
                { context in
                    let runner = Unmanaged<FleetRunner>.fromOpaque(context!).takeRetainedValue()
                    runner.work()
                    return nil
                }, context)
            if created == 0 {
                threads.append(thread)
            } else {
                Unmanaged<FleetRunner>.fromOpaque(context).release()
            }
        }
        if threads.isEmpty { work() }
        for thread in threads { pthread_join(thread, nil) }
    }

    /// One worker: takes the next database until none is left or the fleet stops.
    private func work() {
        while !stop.isCancelled, let entry = nextEntry() {
            let outcome =
                entry.problem.map { FleetOutcome.refused(entry.path, problem: $0) }
                ?? FleetOutcome.run(command, on: entry.path, invocation: invocation)
            report(outcome)
            if isFailFast, outcome.isFailure { stop.cancel() }
        }
    }

    private func nextEntry() -> DatabaseList.Entry? {
        state.withLock { state in
            guard state.listError == nil else { return nil }
            do {
                return try state.list.next()
            } catch {
                state.listError = error
                return nil
            }
        }
    }

    private func report(_ outcome: FleetOutcome) {
        state.withLock { state in
            let io = invocation.io
            state.progress.clear(on: io)
            state.summary.add(outcome)
            if isJSON {
                try? io.output.write(outcome.json + "\n")
            } else if outcome.isFailure {
                if state.failures.add(outcome) { try? io.error.write(outcome.text) }
            } else if !invocation.configuration.isQuiet {
                try? io.output.write(outcome.text)
                try? io.output.flush()
            }
            state.progress.show(state.summary, on: io)
        }
    }

    private func finish() throws -> ExitStatus {
        try state.withLock { state in
            let io = invocation.io
            state.progress.clear(on: io)
            if let error = state.listError { throw error }
            let signal = SignalWatcher.shared.stopStatus()
            for line in state.failures.summaryLines { io.printError(line) }
            if !invocation.configuration.isQuiet {
                let line = state.summary.line(stoppedBy: signal, failFast: isFailFast && stop.isCancelled && signal == nil)
                if isJSON { io.printError(line) } else { try io.printOutput(line) }
            }
            if let signal { return signal }
            if state.summary.failed > 0 { return .failure }
            if command.spec.name == "status", invocation.arguments.has(StatusCommand.exitCode), state.summary.withWork > 0 {
                return .workPending
            }
            return .success
        }
    }
}
