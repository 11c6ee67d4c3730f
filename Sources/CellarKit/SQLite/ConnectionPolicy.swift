/// What a connection refuses while statements are prepared, through one authorizer
/// (<https://sqlite.org/c3ref/set_authorizer.html>): transaction control inside a transaction cellar
/// opened, and, under `--safe`, whatever reaches outside the database.
///
/// One policy holds both checks: the migrator, seeds and
/// transactional scripts refuse `BEGIN`, `COMMIT`/`END` and `ROLLBACK` without `TO` (savepoints stay
/// allowed); `--safe` (as `sqlite3 -safe`) refuses the functions
/// `readfile`, `writefile`, `load_extension` and `fts3_tokenizer`, `ATTACH`, and `VACUUM INTO`,
/// which SQLite authorizes as an `ATTACH` of the target file (a plain `VACUUM` attaches `''`
/// and stays allowed; an `ATTACH` whose file name SQLite cannot show, an expression or a parameter,
/// is refused).
///
/// ```swift
/// let policy = ConnectionPolicy(refusesTransactionControl: true, isSafe: true)
/// try policy.install(on: db)
/// do { try db.execute(sql) } catch let error as SQLiteError where policy.lastRefusal != nil { … }
/// ```
package final class ConnectionPolicy {
    /// Why a statement was refused.
    package enum Refusal: Sendable, Equatable {
        /// `BEGIN`, `COMMIT` or `ROLLBACK` (the operation) inside cellar's transaction.
        case transactionControl(String)
        /// Something safe mode forbids, described (`the function readfile`, `ATTACH`, `VACUUM INTO`).
        case unsafe(String)
        /// A pragma SQLite silently ignores inside a transaction (`PRAGMA journal_mode`), set inside
        /// cellar's.
        case ignoredInTransaction(String)
        /// Something that would write outside the in-memory database a dry run or a replay works on
        /// (`ATTACH` of a file, `VACUUM INTO`, `writefile`, `load_extension`): the sentence says why.
        case outsideRehearsal(String)
    }

    /// The in-memory work a connection does for a check, where nothing outside that database may change.
    package enum Rehearsal: Sendable, Equatable {
        /// `migrate --dry-run`: the pending migrations on a copy of the database.
        case dryRun
        /// A ``SchemaReplay``: the migrations into an empty database, to learn the schema they build.
        case replay
    }

    /// Pragmas whose setting SQLite ignores, without an error, inside a transaction
    /// (<https://sqlite.org/pragma.html#pragma_journal_mode>): refused with transaction control, so
    /// that a migration or script setting one fails instead of being recorded as done.
    package static let pragmasIgnoredInTransaction: Set<String> = ["journal_mode"]

    /// Whether `BEGIN`, `COMMIT`/`END` and `ROLLBACK` without `TO` are refused.
    package var refusesTransactionControl: Bool
    /// The rehearsal the connection runs, if any: `ATTACH` of a file, `VACUUM INTO` (SQLite authorizes
    /// both as an attach of the file) and the functions `writefile` and `load_extension` are refused; a
    /// plain `VACUUM` (which attaches `''`) and `ATTACH ':memory:'` stay allowed.
    package var rehearsal: Rehearsal?
    /// Whether `PRAGMA foreign_keys = ON` is refused (inside a migration's transaction, where SQLite
    /// ignores it: <https://sqlite.org/pragma.html#pragma_foreign_keys>); turning them off is let through,
    /// since the migrator already has.
    package var refusesForeignKeysOn = false
    /// Whether safe mode (as `sqlite3 -safe`) is in force.
    package let isSafe: Bool
    /// The most recent refusal, if any; cleared by ``clearRefusal()``.
    package private(set) var lastRefusal: Refusal?
    /// The transaction operation SQLite last asked about, allowed or not (`BEGIN`, `COMMIT` — also
    /// for `END` — or `ROLLBACK`): set it to nil before preparing a statement to learn whether that
    /// statement is one, and which.
    package var lastTransactionOperation: String?
    /// How many actions SQLite asked about since this was last set to 0, and whether one of them was
    /// transaction control, a savepoint, a `PRAGMA`, `ATTACH` or `DETACH` (statements that may not do
    /// inside a transaction what they do outside one). Reset both before preparing a statement to learn
    /// whether it reads and writes only tables and the schema, which a transaction leaves unchanged;
    /// a `VACUUM` asks about nothing.
    package var actionCount = 0
    package var sawConnectionAction = false
    /// The savepoint operation SQLite last asked about (`BEGIN` for `SAVEPOINT`, `RELEASE`, `ROLLBACK`
    /// for `ROLLBACK TO`): a `SAVEPOINT` outside a transaction opens one, though SQLite counts it as
    /// read-only, and the `RELEASE` of the outermost one commits it. Set it to nil before preparing.
    package var lastSavepointOperation: String?
    /// Whether SQLite asked about `PRAGMA foreign_keys` (read or set) since this was last set to false:
    /// only that pragma changes whether foreign keys are enforced.
    package var sawForeignKeysPragma = false

    /// Why a dry run refuses `ATTACH`.
    package static let attachInRehearsalMessage =
        "ATTACH is not allowed in a dry run: it rehearses on an in-memory copy of the database, but an attached "
        + "database would really be changed"

    /// The functions a rehearsal refuses, in lowercase: each would change something outside its database.
    package static let functionsWritingOutside: Set<String> = ["writefile", "load_extension"]

    /// Why `rehearsal` refuses `what` (`ATTACH or VACUUM INTO`, `the function writefile`).
    package static func outsideRehearsalMessage(_ what: String, in rehearsal: Rehearsal) -> String {
        switch (rehearsal, what.hasPrefix("ATTACH")) {
        case (.dryRun, true): attachInRehearsalMessage
        case (.dryRun, false):
            "\(what) is not allowed in a dry run: it rehearses on an in-memory copy of the database, but \(what) would "
                + "really change files"
        case (.replay, true):
            "\(what) is not allowed in a replay: it builds the schema in an in-memory database, and an attached "
                + "database would really be changed"
        case (.replay, false):
            "\(what) is not allowed in a replay: it builds the schema in an in-memory database, and \(what) would "
                + "really change files"
        }
    }

    /// The functions safe mode refuses, in lowercase.
    package static let unsafeFunctions: Set<String> = ["readfile", "writefile", "load_extension", "fts3_tokenizer"]

    /// Creates a policy; nothing is refused until it is installed.
    package init(refusesTransactionControl: Bool, isSafe: Bool) {
        self.refusesTransactionControl = refusesTransactionControl
        self.isSafe = isSafe
    }

    /// Adds the policy to `database`'s checks for as long as the connection lives, beside the app's
    /// authorizer; the connection holds the policy, so it keeps refusing even when nobody else does.
    package func install(on database: Database) throws {
        try database.addPolicy(self)
    }

    /// Takes the policy off `database`'s checks; the app's authorizer and other policies stay.
    package func uninstall(from database: Database) throws {
        try database.removePolicy(self)
    }

    /// Whether ``evaluate(_:)`` only counts a request of `action` and allows it, reading nothing else of
    /// it: true for every action but transaction control, savepoints, pragmas, `ATTACH`, `DETACH` and
    /// function calls. The authorizer then makes no request when no app's closure reads one either
    /// (an `INSERT`'s table, a column read: most of what SQLite asks about).
    static func onlyCounts(_ action: AuthorizationRequest.Action) -> Bool {
        if case .other = action { true } else { false }
    }

    /// What ``evaluate(_:)`` does for an action it ``onlyCounts(_:)``.
    func countUnreadAction() {
        actionCount += 1
    }

    /// Decides on one request, remembering why when it refuses.
    package func evaluate(_ request: AuthorizationRequest) -> AuthorizationDecision {
        if request.action == .transaction { lastTransactionOperation = request.first }
        actionCount += 1
        switch request.action {
        case .savepoint:
            sawConnectionAction = true
            lastSavepointOperation = request.first
        case .pragma:
            sawConnectionAction = true
            if !sawForeignKeysPragma, request.first?.lowercased() == "foreign_keys" { sawForeignKeysPragma = true }
        case .transaction, .attach, .detach: sawConnectionAction = true
        case .function, .other: break
        }
        guard let refusal = refusal(for: request) else { return .allow }
        lastRefusal = refusal
        return .deny
    }

    /// Forgets the last refusal.
    package func clearRefusal() {
        lastRefusal = nil
    }

    /// A sentence saying why the last refused statement was refused, if one was.
    package var refusalMessage: String? {
        switch lastRefusal {
        case .transactionControl(let operation)?:
            "\(operation) is not allowed here: cellar runs the script in one transaction of its own"
        case .unsafe(let what)?:
            "\(what) is not allowed in safe mode"
        case .ignoredInTransaction(let what)?:
            "\(what) cannot change inside a transaction (SQLite would silently ignore it)"
        case .outsideRehearsal(let message)?:
            message
        case nil: nil
        }
    }

    /// Whether a pragma's boolean value turns it on, as SQLite reads one (<https://sqlite.org/pragma.html>).
    private static func isOn(_ value: String) -> Bool {
        let word = value.lowercased().filter { $0 != "'" && $0 != "\"" && $0 != " " }
        return ["1", "on", "yes", "true"].contains(word) || (Int(word).map { $0 != 0 } ?? false)
    }

    private func refusal(for request: AuthorizationRequest) -> Refusal? {
        switch request.action {
        case .transaction where refusesTransactionControl:
            return .transactionControl(request.first ?? "transaction control")
        case .pragma where refusesTransactionControl && request.second != nil:
            // SQLite passes the pragma's name and, when it is being set, its value.
            let name = (request.first ?? "").lowercased()
            if refusesForeignKeysOn, name == "foreign_keys", Self.isOn(request.second ?? "") {
                return .ignoredInTransaction("PRAGMA foreign_keys = ON")
            }
            return Self.pragmasIgnoredInTransaction.contains(name) ? .ignoredInTransaction("PRAGMA \(name)") : nil
        case .attach where isSafe:
            // A plain VACUUM attaches '' (https://sqlite.org/lang_vacuum.html). SQLite passes no file
            // name at all when ATTACH names its file with an expression or a parameter, so only a
            // literal '' is let through.
            return request.first == "" ? nil : .unsafe("ATTACH or VACUUM INTO")
        case .attach where rehearsal != nil:
            guard request.first != "", request.first != ":memory:", let rehearsal else { return nil }
            return .outsideRehearsal(Self.outsideRehearsalMessage("ATTACH or VACUUM INTO", in: rehearsal))
        case .function where rehearsal != nil && Self.functionsWritingOutside.contains((request.second ?? "").lowercased()):
            let name = (request.second ?? "").lowercased()
            return rehearsal.map { .outsideRehearsal(Self.outsideRehearsalMessage("the function \(name)", in: $0)) }
        case .function where isSafe:
            let name = (request.second ?? "").lowercased()
            return Self.unsafeFunctions.contains(name) ? .unsafe("the function \(name)") : nil
        default:
            return nil
        }
    }
}

@available(*, unavailable)
extension ConnectionPolicy: Sendable {}
