internal import CSQLite

/// What SQLite says about one statement when it prepares it: whether it returns rows
/// (`sqlite3_column_count`), writes (`sqlite3_stmt_readonly`), is an `EXPLAIN`, its parameters
/// (`sqlite3_bind_parameter_name`), and the actions its authorizer was asked about
/// (<https://sqlite.org/c3ref/set_authorizer.html>). An engine that cannot ask the database itself
/// (a dqlite server) prepares the statement on a local copy of the schema and reads these.
package struct StatementFacts: Sendable {
    /// The number of result columns.
    package var columnCount: Int
    /// Whether SQLite counts the statement as read-only; transaction control is.
    package var isReadOnly: Bool
    /// Whether it is an `EXPLAIN` or `EXPLAIN QUERY PLAN`.
    package var isExplain: Bool
    /// The name of each parameter by number (index 0 is parameter 1), nil for `?` and unused numbers.
    package var parameterNames: [String?]
    /// The actions the authorizer was asked about, in order.
    package var actions: [AuthorizationRequest]

    package init(
        columnCount: Int, isReadOnly: Bool, isExplain: Bool, parameterNames: [String?], actions: [AuthorizationRequest]
    ) {
        self.columnCount = columnCount
        self.isReadOnly = isReadOnly
        self.isExplain = isExplain
        self.parameterNames = parameterNames
        self.actions = actions
    }

    /// Whether the statement returns rows.
    package var returnsRows: Bool { columnCount > 0 }

    /// Whether it is a `PRAGMA`.
    package var isPragma: Bool { actions.contains { $0.action == .pragma } }

    /// `BEGIN`, `COMMIT` (for `COMMIT` and `END`) or `ROLLBACK` as the authorizer names them, nil for
    /// any other statement (a `ROLLBACK TO` is a savepoint).
    package var transactionOperation: String? {
        actions.first { $0.action == .transaction }?.first
    }

    /// The savepoint operation (`BEGIN` for `SAVEPOINT`, `RELEASE`, `ROLLBACK` for `ROLLBACK TO`) and
    /// the savepoint's name, for a savepoint statement.
    package var savepoint: (operation: String, name: String)? {
        guard let request = actions.first(where: { $0.action == .savepoint }), let operation = request.first,
            let name = request.second
        else { return nil }
        return (operation, name)
    }

    /// Whether it creates, drops or alters a schema object.
    package var changesSchema: Bool {
        actions.contains { request in
            guard case .other(let code) = request.action else { return false }
            return Self.schemaActions.contains(code)
        }
    }

    /// Whether it is an INSERT, UPDATE or DELETE (`REPLACE` and upserts included), whose changes
    /// `sqlite3_changes` counts.
    package var countsChanges: Bool {
        guard !isExplain, !isPragma, !changesSchema else { return false }
        return actions.contains { request in
            guard case .other(let code) = request.action else { return false }
            return code == SQLITE_INSERT || code == SQLITE_UPDATE || code == SQLITE_DELETE
        }
    }

    /// Whether it writes and returns rows: an INSERT, UPDATE or DELETE with `RETURNING`. (A pragma that
    /// sets a value and echoes it, such as `journal_mode`, is not one.)
    package var writesReturningRows: Bool {
        returnsRows && !isReadOnly && !isExplain && !isPragma
    }

    /// Whether the authorizer's action `code` creates, drops or alters a schema object.
    package static func isSchemaAction(_ code: Int32) -> Bool { schemaActions.contains(code) }

    private static let schemaActions: Set<Int32> = [
        SQLITE_CREATE_INDEX, SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_INDEX, SQLITE_CREATE_TEMP_TABLE,
        SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_TEMP_VIEW, SQLITE_CREATE_TRIGGER, SQLITE_CREATE_VIEW, SQLITE_DROP_INDEX,
        SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_INDEX, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TEMP_VIEW,
        SQLITE_DROP_TRIGGER, SQLITE_DROP_VIEW, SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE, SQLITE_DROP_VTABLE,
    ]
}

extension Database {
    /// Prepares the first statement of `sql` without running it and reports what SQLite says about it.
    /// The app's authorizer and cellar's policies are consulted as for any prepare.
    ///
    /// - Throws: ``SQLiteError`` when SQLite cannot prepare it.
    package func facts(of sql: String) throws -> StatementFacts {
        try preparedWithFacts(sql).facts
    }

    /// ``facts(of:)`` and the statement prepared for them, which the caller may step later (a remote
    /// connection runs a schema statement on its local copy of the schema this way, without preparing
    /// it twice).
    package func preparedWithFacts(_ sql: String) throws -> (statement: Statement, facts: StatementFacts) {
        let recorder = AuthorizationRecorder()
        let saved = authorizers.app
        authorizers.app = { request in
            recorder.requests.append(request)
            return saved?(request) ?? .allow
        }
        try installAuthorizers()
        defer {
            authorizers.app = saved
            try? installAuthorizers()
        }
        let statement = try prepare(sql)
        let facts = StatementFacts(
            columnCount: statement.columnCount, isReadOnly: statement.isReadOnly,
            isExplain: sqlite3_stmt_isexplain(statement.handle) != 0,
            parameterNames: (0..<statement.parameterCount).map { statement.parameterName(at: $0 + 1) },
            actions: recorder.requests)
        return (statement, facts)
    }
}

/// Collects the requests of one prepare.
private final class AuthorizationRecorder {
    var requests: [AuthorizationRequest] = []
}
