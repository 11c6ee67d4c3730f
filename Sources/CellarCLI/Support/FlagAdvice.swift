import CellarKit

/// The command line's advice on top of what CellarKit reports: CellarKit states facts, and only the
/// CLI knows its own flags and commands (`--autocommit`, `--safe`, `--allow-out-of-order`,
/// `cellar accept N`).
enum FlagAdvice {
    /// Why a statement was refused, in the words of the flag that refused it.
    static func message(for refusal: ConnectionPolicy.Refusal) -> String {
        switch refusal {
        case .transactionControl(let operation):
            "\(operation) is not allowed here: cellar runs the script in one transaction of its own"
        case .unsafe(let what):
            "\(what) is not allowed with --safe"
        case .ignoredInTransaction(let what):
            "\(what) cannot change inside the script's transaction (SQLite would silently ignore it)"
        case .outsideRehearsal(let message):
            message
        }
    }

    /// `diagnostic` with the flag hints its reason calls for.
    static func advised(_ diagnostic: Diagnostic) -> Diagnostic {
        var result = diagnostic
        switch diagnostic.reason {
        case .transactionControlRefused?:
            result.notes.append("to run a script that manages its own transactions (such as a .dump), use --autocommit")
        case .needsNoTransaction?:
            result.notes.append("VACUUM, ATTACH and some PRAGMAs cannot run inside a transaction: use --autocommit")
        case .refusedBySafeMode(let what)?:
            result.message = message(for: .unsafe(what))
        case nil:
            break
        }
        if diagnostic.isLockContention, !result.notes.contains(busyTimeoutNote) { result.notes.append(busyTimeoutNote) }
        return result
    }

    /// What to do about a lock another connection held for longer than cellar waited.
    static let busyTimeoutNote =
        "another connection holds a lock on the database; cellar waits for a lock as long as --busy-timeout says "
        + "(milliseconds, 5000 by default): raise it to wait longer"

    /// Runs `body` (a command on the configured database), turning a lock error that reached it bare
    /// (SQLite's `database is locked`, alone or located at a statement) into one naming the database
    /// and the busy timeout.
    static func namingLocks(_ configuration: Configuration, _ body: () throws -> ExitStatus) throws -> ExitStatus {
        do {
            return try body()
        } catch let error as SQLiteError where error.isLockContention {
            throw CommandFailure(
                message: lockedMessage(
                    path: configuration.databasePath, timeout: configuration.busyTimeout, consequence: "cellar stopped there"))
        } catch let diagnostic as Diagnostic where diagnostic.isLockContention {
            throw namingLock(in: diagnostic, path: configuration.databasePath, timeout: configuration.busyTimeout)
        } catch let stop as SignalStop {
            guard let diagnostic = stop.underlying as? Diagnostic, diagnostic.isLockContention else { throw stop }
            let named = namingLock(in: diagnostic, path: configuration.databasePath, timeout: configuration.busyTimeout)
            throw SignalStop(underlying: named, status: stop.status)
        }
    }

    /// `diagnostic`, a statement that found a database locked, with SQLite's bare `database is locked`
    /// replaced by the database's name and how long cellar waited.
    static func namingLock(in diagnostic: Diagnostic, path: String, timeout: Int32) -> Diagnostic {
        guard let error = diagnostic.underlying as? SQLiteError else { return diagnostic }
        var result = diagnostic
        let named = lockedStatementMessage(path: path, timeout: timeout)
        if let range = result.message.firstRange(of: ScriptRunner.lockedReason) {
            result.message.replaceSubrange(range, with: named)
        } else if let range = result.message.firstRange(of: error.message) {
            result.message.replaceSubrange(range, with: named)
        } else {
            result.message += " (\(named))"
        }
        return result
    }

    /// What a statement that found a database locked says: which database, and how long cellar waited.
    /// The lock may be on a database the statement attaches, which SQLite's error does not name.
    static func lockedStatementMessage(path: String, timeout: Int32) -> String {
        "database '\(path)' (or one attached to it) is locked by another connection (gave up after \(timeout) ms)"
    }

    /// `database 'PATH' is locked by another connection …`, for commands that stop before changing anything.
    static func lockedMessage(path: String, timeout: Int32, consequence: String) -> String {
        "database '\(path)' is locked by another connection (gave up after \(timeout) ms); \(consequence); "
            + "raise --busy-timeout to wait longer"
    }

    /// A migrator error as the CLI reports it: a located diagnostic when it is about a file, a
    /// one-line failure otherwise, with the flag or command that resolves it.
    static func advised(_ error: MigrationError) -> any Error {
        switch error {
        case .outOfOrder(let paths, _):
            let pronoun = paths.count == 1 ? "it" : "them"
            return CommandFailure(message: "\(error.description); pass --allow-out-of-order to apply \(pronoun)")
        case .changedAfterApply(let version, _):
            var diagnostic = error.diagnostic!
            diagnostic.message = changedAfterApplyMessage(version: version)
            return diagnostic
        case .seedOutsideFolder(let path, _):
            var diagnostic = error.diagnostic!
            diagnostic.notes.append(
                "point --seeds (or CELLAR_SEEDS) at its folder, or run a one-off script with 'cellar run \(path)'")
            return diagnostic
        case .unwritten(let path):
            return Diagnostic(path: path, message: "not written yet: its up section is still the template 'cellar new' wrote")
        case .unfinished(let version, _, _):
            return CommandFailure(
                message: error.description + ". If no process runs it, check what its statements did, then either "
                    + "finish it by hand and run 'cellar accept \(version)', or run it again from the start after "
                    + "'cellar query \"DELETE FROM cellar_migrations WHERE version = \(version)\"'")
        case .nonTransactionalInAllOrNothing(let path):
            return Diagnostic(path: path, message: "runs with transaction:false, so it cannot be part of --all-or-nothing")
        case .otherToolLedger:
            return CommandFailure(
                message: error.description + ". Run 'cellar adopt' to record them as applied (without running them)")
        case .dirtyOtherToolLedger(let ledger):
            let repair =
                ledger.tool == .golangMigrate
                ? "golang-migrate's 'migrate force VERSION' (the version the database is really at)"
                : "deleting its failed row from \(ledger.table)"
            return CommandFailure(
                message: error.description + ". Check what that migration did, repair the database, clear the mark "
                    + "with \(repair), then run 'cellar adopt' again")
        default:
            if let diagnostic = error.diagnostic { return advised(diagnostic) }
            return CommandFailure(message: error.description)
        }
    }

    /// What the CLI says about a migration whose file changed after it was applied.
    static func changedAfterApplyMessage(version: Int64) -> String {
        "migration \(version) changed after it was applied (checksum differs; 'cellar accept \(version)' if harmless)"
    }
}

extension Diagnostic {
    /// Whether the error under this diagnostic is SQLite's lock contention (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    var isLockContention: Bool { (underlying as? SQLiteError)?.isLockContention == true }
}
