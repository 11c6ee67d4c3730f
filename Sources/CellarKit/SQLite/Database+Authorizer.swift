internal import CSQLite

/// One action SQLite asks permission for while preparing a statement
/// (<https://sqlite.org/c3ref/set_authorizer.html>).
public struct AuthorizationRequest: Sendable {
    /// The kinds of action cellar's policies look at; everything else is ``other``.
    public enum Action: Sendable, Equatable {
        /// `BEGIN`, `COMMIT`/`END` or `ROLLBACK` (without `TO`); the operation is in ``AuthorizationRequest/first``.
        case transaction
        /// `SAVEPOINT`, `RELEASE` or `ROLLBACK TO`.
        case savepoint
        /// `ATTACH`; the file name is in ``AuthorizationRequest/first``.
        case attach
        /// `DETACH`.
        case detach
        /// A call of the SQL function named in ``AuthorizationRequest/second``.
        case function
        /// A `PRAGMA` named in ``AuthorizationRequest/first``.
        case pragma
        /// Any other action, by SQLite's action code.
        case other(Int32)
    }

    /// What is being done.
    public let action: Action
    /// The first detail SQLite gives (the transaction operation, the attached file, the pragma…).
    public let first: String?
    /// The second detail (the function name for ``Action/function``).
    public let second: String?
    /// The schema the action touches (`main`, `temp`, an attached one), when SQLite names one.
    public let schema: String?
    /// The innermost trigger or view whose body the action comes from; nil for the statement's own.
    public let accessor: String?

    /// A request from its parts; an engine without SQLite's authorizer builds them to consult policies.
    package init(action: Action, first: String?, second: String?, schema: String? = nil, accessor: String? = nil) {
        self.action = action
        self.first = first
        self.second = second
        self.schema = schema
        self.accessor = accessor
    }

    /// `SQLITE_DELETE` and `SQLITE_DROP_TABLE`, for readers outside the C boundary.
    static let deleteCode = SQLITE_DELETE
    static let dropTableCode = SQLITE_DROP_TABLE

    /// SQLite's action code (`SQLITE_DROP_TABLE`, `SQLITE_DELETE`, …), for readers that tell apart
    /// more than ``Action`` does.
    package var code: Int32 {
        switch action {
        case .transaction: SQLITE_TRANSACTION
        case .savepoint: SQLITE_SAVEPOINT
        case .attach: SQLITE_ATTACH
        case .detach: SQLITE_DETACH
        case .function: SQLITE_FUNCTION
        case .pragma: SQLITE_PRAGMA
        case .other(let code): code
        }
    }
}

/// What an authorizer answers.
public enum AuthorizationDecision: Sendable {
    /// Let the statement be prepared.
    case allow
    /// Refuse: preparing fails with `SQLITE_AUTH`, so the statement never runs.
    case deny
}

/// What the connection's one SQLite authorizer consults: cellar's policies, then the app's closure.
///
/// Holds every party strongly, so a policy installed on a connection keeps refusing however its
/// creator's references come and go (it fails closed).
final class AuthorizerChain {
    var policies: [ConnectionPolicy] = []
    var app: ((AuthorizationRequest) -> AuthorizationDecision)?

    var isEmpty: Bool { policies.isEmpty && app == nil }

    /// Decides, with no app's closure, on an action every policy only counts
    /// (``ConnectionPolicy/onlyCounts(_:)``): each counts it, and it is allowed.
    func allowUnread() {
        for policy in policies { policy.countUnreadAction() }
    }

    func decide(_ request: AuthorizationRequest) -> AuthorizationDecision {
        var decision = AuthorizationDecision.allow
        // Every policy sees the request, so each records its own refusal.
        for policy in policies where policy.evaluate(request) == .deny { decision = .deny }
        if decision == .allow, let app { decision = app(request) }
        return decision
    }
}

extension Database {
    /// Installs `body` as the app's authorizer, consulted for every action of every statement prepared
    /// from now on (nil removes it). A denied action makes `prepare` fail with `SQLITE_AUTH`.
    ///
    /// The authorizer stays installed while CellarKit works on the connection: the migrator, the seeder
    /// and the script runner add their own checks beside it for the time they run, and leave it as it was.
    ///
    /// ```swift
    /// try db.setAuthorizer { $0.action == .attach ? .deny : .allow }
    /// ```
    public func setAuthorizer(_ body: ((AuthorizationRequest) -> AuthorizationDecision)?) throws {
        _ = try openHandle()
        authorizers.app = body
        try installAuthorizers()
    }

    /// Adds `policy` to the connection's checks until ``removePolicy(_:)``; the app's authorizer stays.
    package func addPolicy(_ policy: ConnectionPolicy) throws {
        _ = try openHandle()
        authorizers.policies.append(policy)
        try installAuthorizers()
    }

    /// Takes `policy` off the connection's checks.
    package func removePolicy(_ policy: ConnectionPolicy) throws {
        authorizers.policies.removeAll { $0 === policy }
        try installAuthorizers()
    }

    /// Runs `body` with `policy` checking every statement prepared meanwhile, beside the app's
    /// authorizer and any policy already installed; afterwards the connection's checks are as before.
    package func withPolicy<Result>(_ policy: ConnectionPolicy, _ body: () throws -> Result) throws -> Result {
        try addPolicy(policy)
        defer { try? removePolicy(policy) }
        return try body()
    }

    /// Points SQLite's one authorizer slot at the chain, or clears it when nothing is left to consult.
    func installAuthorizers() throws {
        let handle = try openHandle()
        guard !authorizers.isEmpty else {
            try check(sqlite3_set_authorizer(handle, nil, nil))
            return
        }
        let code = sqlite3_set_authorizer(
            handle,
            { context, code, first, second, schema, accessor in
                let chain = Unmanaged<AuthorizerChain>.fromOpaque(context!).takeUnretainedValue()
                let action = AuthorizationRequest.Action(code: code)
                // cellar's policies only count most actions: without the app's closure, those need no
                // request (nor strings of SQLite's details).
                guard chain.app != nil || !ConnectionPolicy.onlyCounts(action) else {
                    chain.allowUnread()
                    return SQLITE_OK
                }
                let request = AuthorizationRequest(
                    action: action, first: first.map { String(cString: $0) }, second: second.map { String(cString: $0) },
                    schema: schema.map { String(cString: $0) }, accessor: accessor.map { String(cString: $0) })
                return chain.decide(request) == .allow ? SQLITE_OK : SQLITE_DENY
            }, Unmanaged.passUnretained(authorizers).toOpaque())
        try check(code)
    }
}

extension AuthorizationRequest.Action {
    init(code: Int32) {
        switch code {
        case SQLITE_TRANSACTION: self = .transaction
        case SQLITE_SAVEPOINT: self = .savepoint
        case SQLITE_ATTACH: self = .attach
        case SQLITE_DETACH: self = .detach
        case SQLITE_FUNCTION: self = .function
        case SQLITE_PRAGMA: self = .pragma
        default: self = .other(code)
        }
    }
}
