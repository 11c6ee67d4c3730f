import CellarKit

/// What SQLite said of read-only queries and of transaction control, by text, kept across changes to
/// the schema.
///
/// Of a statement's facts a remote connection reads whether it returns rows, whether it is read-only,
/// a pragma or an `EXPLAIN`, its parameters, and whether it is transaction control, changes the
/// schema or counts changes. For a statement that prepared as a read-only query (a `SELECT`, `VALUES`
/// or `WITH … SELECT`: result columns, read-only, not a pragma, not an `EXPLAIN`, no transaction,
/// savepoint or schema action) every one of those follows from its text alone: a query always has
/// result columns, never writes, and its parameters are the parser's. So the same text need not be
/// prepared on the local copy of the schema again after a migration changed it, as the migrator's
/// ledger lookup before each migration would be. Transaction control (`BEGIN`, `COMMIT`, `ROLLBACK`,
/// `SAVEPOINT`, `RELEASE`, `ROLLBACK TO`) is the parser's alone as well: it names no table. A text that no longer prepares (a table it reads was
/// dropped) goes to the leader, which reports why, as it would after the local copy failed.
struct QueryFactsCache {
    private var facts: [String: StatementFacts] = [:]

    /// How many texts are kept at most (then the cache starts again).
    static let limit = 64

    subscript(sql: String) -> StatementFacts? { facts[sql] }

    /// Keeps `facts` for `sql` when they are a read-only query's.
    mutating func remember(_ facts: StatementFacts, for sql: String) {
        guard Self.isTextDetermined(facts) else { return }
        if self.facts.count >= Self.limit { self.facts = [:] }
        self.facts[sql] = facts
    }

    /// Whether `facts` are a read-only query's or transaction control's, which the text alone decides.
    static func isTextDetermined(_ facts: StatementFacts) -> Bool {
        if facts.transactionOperation != nil || facts.savepoint != nil {
            return facts.actions.count == 1 && !facts.returnsRows
        }
        return facts.returnsRows && facts.isReadOnly && !facts.isPragma && !facts.isExplain && !facts.changesSchema
            && !facts.countsChanges
    }
}
