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
}

/// What an authorizer answers.
public enum AuthorizationDecision: Sendable {
    /// Let the statement be prepared.
    case allow
    /// Refuse: preparing fails with `SQLITE_AUTH`, so the statement never runs.
    case deny
}

/// A Swift closure installed as the connection's authorizer.
private final class AuthorizerBox {
    let body: (AuthorizationRequest) -> AuthorizationDecision
    init(_ body: @escaping (AuthorizationRequest) -> AuthorizationDecision) { self.body = body }
}

extension Database {
    /// Installs `body` as the authorizer, consulted for every action of every statement prepared from
    /// now on (nil removes it). A denied action makes `prepare` fail with `SQLITE_AUTH`.
    ///
    /// ```swift
    /// try db.setAuthorizer { $0.action == .attach ? .deny : .allow }
    /// ```
    public func setAuthorizer(_ body: ((AuthorizationRequest) -> AuthorizationDecision)?) throws {
        let handle = try openHandle()
        guard let body else {
            callbackBoxes["authorizer"] = nil
            try check(sqlite3_set_authorizer(handle, nil, nil))
            return
        }
        let box = AuthorizerBox(body)
        callbackBoxes["authorizer"] = box
        let code = sqlite3_set_authorizer(
            handle,
            { context, code, first, second, _, _ in
                let box = Unmanaged<AuthorizerBox>.fromOpaque(context!).takeUnretainedValue()
                let request = AuthorizationRequest(
                    action: AuthorizationRequest.Action(code: code), first: first.map { String(cString: $0) },
                    second: second.map { String(cString: $0) })
                return box.body(request) == .allow ? SQLITE_OK : SQLITE_DENY
            }, Unmanaged.passUnretained(box).toOpaque())
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
