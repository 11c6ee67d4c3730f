/// The tables, indexes, views and triggers a migration created, dropped or redefined.
public struct SchemaChanges: Sendable, Equatable {
    /// `table wine`, `index wine_by_rating`, … that did not exist before.
    public let created: [String]
    /// Objects that no longer exist.
    public let dropped: [String]
    /// Objects whose `CREATE` statement changed (a table rebuilt under the same name).
    public let redefined: [String]

    /// The objects of `database` by `type name`, with their SQL; cellar's own tables left out.
    static func snapshot(of database: any SQLConnection) throws -> [String: String] {
        var result: [String: String] = [:]
        let rows = try database.query(
            """
            SELECT type || ' ' || name, coalesce(sql, '') FROM sqlite_schema
            WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT IN ('cellar_migrations', 'cellar_seeds')
            """)
        for row in rows { result[row[0].ledgerText] = row[1].ledgerText }
        return result
    }

    /// What changed between two snapshots.
    init(before: [String: String], after: [String: String]) {
        created = after.keys.filter { before[$0] == nil }.sorted()
        dropped = before.keys.filter { after[$0] == nil }.sorted()
        redefined = after.keys.filter { before[$0] != nil && before[$0] != after[$0] }.sorted()
    }
}
