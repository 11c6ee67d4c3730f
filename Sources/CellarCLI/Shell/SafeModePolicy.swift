import CellarKit

/// `--safe`, as in `sqlite3 -safe`: an authorizer that refuses `readfile`, `writefile` and `ATTACH`
/// (which `VACUUM INTO` also asks for, with the target file name), and remembers what it refused so
/// that the error can say why.
final class SafeModePolicy {
    private var refusal: String?

    /// The SQL functions that reach the file system.
    static let fileFunctions: Set<String> = ["readfile", "writefile"]

    /// Installs the authorizer on `database`.
    func install(on database: Database) throws {
        try database.setAuthorizer { [self] request in
            let decision = Self.decide(request)
            if decision == .deny, refusal == nil { refusal = Self.describe(request) }
            return decision
        }
    }

    /// What `--safe` answers to one request.
    static func decide(_ request: AuthorizationRequest) -> AuthorizationDecision {
        switch request.action {
        case .attach:
            // VACUUM INTO asks for ATTACH with its target; plain VACUUM's own scratch database has an
            // empty name and is allowed.
            return (request.first ?? "").isEmpty ? .allow : .deny
        case .function:
            return fileFunctions.contains((request.second ?? "").lowercased()) ? .deny : .allow
        default:
            return .allow
        }
    }

    /// What was refused since the last call, cleared by reading it.
    func takeRefusal() -> String? {
        defer { refusal = nil }
        return refusal
    }

    private static func describe(_ request: AuthorizationRequest) -> String {
        switch request.action {
        case .function: "\((request.second ?? "").lowercased())()"
        default: "ATTACH and VACUUM INTO"
        }
    }
}
