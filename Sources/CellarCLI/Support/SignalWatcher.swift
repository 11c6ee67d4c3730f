import CellarKit
import Glibc
import Synchronization

/// The process's one watcher of SIGINT and SIGTERM, which runs nothing inside a signal handler: the
/// signals are blocked in the calling thread (and so in every thread started after it) and taken by
/// one watching thread with `sigwait`. It serves two kinds of work:
///
/// - A writing command (`migrate`, `setup`, `rollback`, `seed`, `run`, …) that ``guarding(_:io:_:)``
///   a connection: a signal interrupts the running statement as the engine can
///   (``SQLConnection/interruption``), no further statement starts, the open transaction is rolled back
///   by the migrator or script runner, and the command exits 130 or 143. It guards every database a
///   command is writing, several at once in a fleet (one per worker thread), and while a fleet runs a
///   signal also stops it from starting another database.
/// - The interactive shell (``startShell()``): Ctrl-C interrupts the statement running now, on any
///   engine, and wakes the prompt through a pipe it polls; it never ends the shell.
final class SignalWatcher: Sendable {
    /// What is being guarded now: each database's interrupter and cancellation flag, by a token, and
    /// the flags of running fleets.
    private let guarded = Mutex<Guarded>(Guarded())
    /// The signal that asked to stop, or 0.
    private let received = Atomic<Int32>(0)
    /// Whether the note about a signal after the commit was written.
    private let noted = Atomic<Bool>(false)

    /// The interactive shell's Ctrl-C, once ``startShell()`` was called.
    private let shell = Mutex<ShellInterrupts?>(nil)

    /// The process's watcher, started on first use.
    static let shared = SignalWatcher()

    private init() {
        var signals = Self.signalSet()
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var thread = pthread_t()
        let context = Unmanaged.passUnretained(self).toOpaque()
        // The watcher lives as long as the process (a static), so the thread may hold it unretained.
        if pthread_create(
            &thread, nil,
            { context in
                Unmanaged<SignalWatcher>.fromOpaque(context!).takeUnretainedValue().watch()
                return nil
            }, context) == 0
        {
            pthread_detach(thread)
        } else {
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        }
    }

    /// Runs `body` with `connection` guarded, whatever its engine: a signal sets its cancellation flag and
    /// interrupts its running statement as the engine can (``SQLConnection/interruption``). If a signal
    /// stopped it, the error it threw comes back as a ``SignalStop`` carrying the signal's exit status
    /// (128 + signal number).
    ///
    /// A signal that came too late to stop anything — `body` finished, its last COMMIT went through — is
    /// reported on `io` as a note and the command's own status stands: the work is committed, and a
    /// deploy tool reading a failure would run it again.
    func guarding<Result>(_ connection: any SQLConnection, io: IO, _ body: () throws -> Result) throws -> Result {
        let flag = CancellationFlag()
        connection.cancellation = flag
        let token = guarded.withLock { $0.add(connection.interruption, flag) }
        defer {
            guarded.withLock { $0.databases[token] = nil }
            connection.cancellation = nil
        }
        let status: Result
        do {
            status = try body()
        } catch {
            guard let signalStatus = stopStatus() else { throw error }
            throw SignalStop(underlying: error, status: signalStatus)
        }
        FaultPause.reach("guarded:finished")
        // The work is committed: from now until the process exits, a signal must not end it with 130
        // or 143 (the watcher would, once nothing is guarded), and is noted instead.
        guarded.withLock {
            $0.databases[token] = nil
            $0.isSettled = true
        }
        if let note = lateSignalNote() { io.printError(note) }
        return status
    }

    /// The note about a signal that came after the work was committed, the first time it is asked for.
    private func lateSignalNote() -> String? {
        guard let name = signalName(), !noted.exchange(true, ordering: .sequentiallyConsistent) else { return nil }
        return "cellar: note: \(name) arrived after the work was committed; nothing was rolled back"
    }

    private func signalName() -> String? {
        switch received.load(ordering: .sequentiallyConsistent) {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: nil
        }
    }

    /// Runs `body` (a fleet) with `flag` cancelled by SIGINT or SIGTERM, instead of the process ending
    /// when no database is being written at that moment.
    func guardingFleet<Result>(_ flag: CancellationFlag, _ body: () throws -> Result) rethrows -> Result {
        let token = guarded.withLock { $0.addFleet(flag) }
        defer { guarded.withLock { $0.fleets[token] = nil } }
        return try body()
    }

    /// The exit status of the signal received, if one was.
    func stopStatus() -> ExitStatus? {
        switch received.load(ordering: .sequentiallyConsistent) {
        case SIGINT: .interrupted
        case SIGTERM: .terminated
        default: nil
        }
    }

    // MARK: - The interactive shell

    /// From now on, Ctrl-C interrupts the shell's running statement (``beginShellStatement(_:cancellation:)``)
    /// and makes the returned descriptor readable (non-blocking; ``drainShellInterrupts()`` empties it),
    /// instead of ending the process. SIGTERM still ends it (143).
    ///
    /// - Throws: ``SystemError`` when the pipe cannot be created.
    func startShell() throws -> Int32 {
        if let descriptor = shell.withLock({ $0?.readDescriptor }) { return descriptor }
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw SystemError(operation: "pipe", code: errno) }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        }
        shell.withLock { $0 = ShellInterrupts(readDescriptor: descriptors[0], writeDescriptor: descriptors[1]) }
        return descriptors[0]
    }

    /// Says that a shell statement (or `.blob`) runs: Ctrl-C sets `cancellation` and interrupts it through
    /// `interruption`, as its engine can.
    func beginShellStatement(_ interruption: ConnectionInterruption?, cancellation: CancellationFlag?) {
        shell.withLock { $0?.running = (interruption, cancellation) }
    }

    /// Says that no shell statement runs any more.
    func endShellStatement() {
        shell.withLock { $0?.running = nil }
    }

    /// Forgets the Ctrl-C presses seen so far; returns whether there were any.
    @discardableResult
    func drainShellInterrupts() -> Bool {
        guard let descriptor = shell.withLock({ $0?.readDescriptor }) else { return false }
        var byte: UInt8 = 0
        var sawAny = false
        while read(descriptor, &byte, 1) == 1 { sawAny = true }
        return sawAny
    }

    /// Ctrl-C in the interactive shell: stops its statement, wakes its prompt. False when no shell runs.
    private func interruptShell() -> Bool {
        shell.withLock { state in
            guard let state else { return false }
            state.running?.1?.cancel()
            state.running?.0?.interrupt()
            var byte: UInt8 = 1
            _ = write(state.writeDescriptor, &byte, 1)
            return true
        }
    }

    // MARK: - Watching

    private func watch() {
        var signals = Self.signalSet()
        while true {
            var signal: Int32 = 0
            guard sigwait(&signals, &signal) == 0 else { continue }
            if signal == SIGINT, interruptShell() { continue }
            received.store(signal, ordering: .sequentiallyConsistent)
            guarded.withLock { target in
                guard !target.databases.isEmpty || !target.fleets.isEmpty else {
                    // A command's work is committed and nothing else is under way: the process exits
                    // with that command's status.
                    // The command's own stream may be in use on its thread: the note goes to descriptor 2.
                    if target.isSettled {
                        if let note = lateSignalNote() { _ = (note + "\n").withCString { write(2, $0, strlen($0)) } }
                        return
                    }
                    // Nothing to roll back: stop as the signal would have.
                    exit(128 + signal)
                }
                for flag in target.fleets.values { flag.cancel() }
                for (interrupter, flag) in target.databases.values {
                    flag.cancel()
                    interrupter.interrupt()
                }
            }
        }
    }

    private static func signalSet() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }
}

/// What ``SignalWatcher`` guards for commands, by token.
private struct Guarded {
    var databases: [Int: (ConnectionInterruption, CancellationFlag)] = [:]
    var fleets: [Int: CancellationFlag] = [:]
    /// Whether a guarded command's work is committed: the process then exits with that command's
    /// status whatever signal comes, and a late signal is noted.
    var isSettled = false
    private var nextToken = 0

    mutating func add(_ interrupter: ConnectionInterruption, _ flag: CancellationFlag) -> Int {
        nextToken += 1
        databases[nextToken] = (interrupter, flag)
        return nextToken
    }

    mutating func addFleet(_ flag: CancellationFlag) -> Int {
        nextToken += 1
        fleets[nextToken] = flag
        return nextToken
    }
}

/// The interactive shell's side of the watcher: the pipe its prompt polls and the statement running.
private struct ShellInterrupts {
    let readDescriptor: Int32
    let writeDescriptor: Int32
    var running: (ConnectionInterruption?, CancellationFlag?)?
}

/// The error of a command stopped by SIGINT or SIGTERM: reported as `underlying`, exiting with `status`.
struct SignalStop: Error {
    /// What the interrupted work threw (the rolled-back statement's error).
    let underlying: any Error
    /// 130 for SIGINT, 143 for SIGTERM.
    let status: ExitStatus
}
