internal import CSQLite

/// What one statement would do, as SQLite's authorizer reports it while the statement is prepared
/// (<https://sqlite.org/c3ref/set_authorizer.html>): only the statement's own actions, not those of
/// the triggers and views it reaches.
struct StatementActions {
    /// `BEGIN`, `COMMIT` or `ROLLBACK`, when the statement is one.
    var transaction: String?
    /// Pragmas with the value each is set to (nil when only read).
    var pragmas: [(name: String, value: String?)] = []
    var droppedTables: [String] = []
    var droppedIndexes: [String] = []
    var droppedTriggers: [String] = []
    var droppedViews: [String] = []
    /// Indexes created, with their table.
    var createdIndexes: [(index: String, table: String)] = []
    var createsObject = false
    /// Tables an `ALTER TABLE` changes.
    var alteredTables: [String] = []
    var deletedFrom: [String] = []
    var updated: [String] = []
    var insertedInto: [String] = []
    /// Functions called, lowercased.
    var functions: Set<String> = []
    /// Whether it attaches a file (`ATTACH`, `VACUUM INTO`) or calls a function reading or writing
    /// files: the replay does not run it, so nothing outside memory changes.
    var reachesOutside = false
    /// Whether it writes `sqlite_sequence` itself (carrying an `AUTOINCREMENT` counter over a rebuild).
    var writesSequence = false

    /// Whether the statement changes the schema.
    var changesSchema: Bool {
        createsObject || !alteredTables.isEmpty || !droppedTables.isEmpty || !droppedIndexes.isEmpty
            || !droppedTriggers.isEmpty || !droppedViews.isEmpty
    }

    /// Whether it changes the schema in any way but creating objects.
    var changesSchemaOtherwise: Bool {
        !alteredTables.isEmpty || !droppedTables.isEmpty || !droppedIndexes.isEmpty || !droppedTriggers.isEmpty
            || !droppedViews.isEmpty
    }

    /// Whether it is a `DROP TABLE` (which SQLite also authorizes as a delete of the table's rows).
    var isDrop: Bool { !droppedTables.isEmpty }

    /// Tables whose rows a `DELETE` statement removes (empty for other statements).
    var deleteTargets: [String] {
        guard !isDrop, insertedInto.isEmpty, updated.isEmpty else { return [] }
        return deletedFrom
    }

    /// Tables an `UPDATE` statement changes (empty for an upsert, which is an insert).
    var updateTargets: [String] {
        guard !isDrop, insertedInto.isEmpty else { return [] }
        return updated
    }

    /// Whether the statement writes rows of the user's tables.
    var changesData: Bool {
        !isDrop && !(deletedFrom + updated + insertedInto).filter { !StatementActions.isInternal($0) }.isEmpty
    }

    /// SQLite's own tables and cellar's.
    static func isInternal(_ table: String) -> Bool {
        let name = table.lowercased()
        return name.hasPrefix("sqlite_") || name == "cellar_migrations" || name == "cellar_seeds"
    }

    private static func append(_ name: String?, to list: inout [String]) {
        guard let name, !isInternal(name), !list.contains(name) else { return }
        list.append(name)
    }

    /// Notes one request of the statement being prepared.
    mutating func note(_ request: AuthorizationRequest) {
        guard request.accessor == nil else { return }
        let first = request.first
        if request.code == SQLITE_INSERT || request.code == SQLITE_UPDATE, first?.lowercased() == "sqlite_sequence" {
            writesSequence = true
        }
        switch request.code {
        case SQLITE_TRANSACTION: transaction = first
        case SQLITE_PRAGMA: pragmas.append((first?.lowercased() ?? "", request.second))
        case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VTABLE: Self.append(first, to: &droppedTables)
        case SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX: Self.append(first, to: &droppedIndexes)
        case SQLITE_DROP_TRIGGER, SQLITE_DROP_TEMP_TRIGGER: Self.append(first, to: &droppedTriggers)
        case SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW: Self.append(first, to: &droppedViews)
        case SQLITE_CREATE_INDEX, SQLITE_CREATE_TEMP_INDEX:
            createsObject = true
            if let first, let table = request.second { createdIndexes.append((first, table)) }
        case SQLITE_CREATE_TABLE, SQLITE_CREATE_TEMP_TABLE, SQLITE_CREATE_VIEW, SQLITE_CREATE_TEMP_VIEW,
            SQLITE_CREATE_TRIGGER, SQLITE_CREATE_TEMP_TRIGGER, SQLITE_CREATE_VTABLE:
            createsObject = true
        case SQLITE_ALTER_TABLE: Self.append(request.second, to: &alteredTables)
        case SQLITE_DELETE: Self.append(first, to: &deletedFrom)
        case SQLITE_UPDATE: Self.append(first, to: &updated)
        case SQLITE_INSERT: Self.append(first, to: &insertedInto)
        case SQLITE_FUNCTION:
            let name = (request.second ?? "").lowercased()
            functions.insert(name)
            if ["readfile", "writefile", "edit", "load_extension"].contains(name) { reachesOutside = true }
        case SQLITE_ATTACH:
            if first != "" && first != ":memory:" { reachesOutside = true }
        default: break
        }
    }
}

/// Collects ``StatementActions`` while a statement is prepared on a replay the linter owns.
final class ActionRecorder {
    var isRecording = false
    var actions = StatementActions()

    /// Installs the recorder as `database`'s authorizer; it allows everything.
    func install(on database: Database) throws {
        try database.setAuthorizer { [unowned self] request in
            if isRecording { actions.note(request) }
            return .allow
        }
    }

    /// Starts a new statement.
    func begin() {
        actions = StatementActions()
        isRecording = true
    }

    /// Ends the statement's preparation and hands back what it would do.
    func end() -> StatementActions {
        isRecording = false
        return actions
    }
}
