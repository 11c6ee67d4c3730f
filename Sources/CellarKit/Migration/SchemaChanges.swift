/// The tables, indexes, views and triggers a migration created, dropped or redefined.
public struct SchemaChanges: Sendable, Equatable {
    /// `table wine`, `index wine_by_rating`, … that did not exist before.
    public let created: [String]
    /// Objects that no longer exist.
    public let dropped: [String]
    /// Objects whose `CREATE` statement changed in meaning (not just in spelling), a table with the
    /// columns it gained and lost: `table wine (+notes, -rating)`.
    public let redefined: [String]

    /// The objects of `database`, cellar's own tables left out.
    static func snapshot(of database: any SQLConnection) throws -> [SchemaObject.Key: SchemaObject] {
        try SchemaObject.all(in: database)
    }

    /// What changed between two snapshots.
    init(before: [SchemaObject.Key: SchemaObject], after: [SchemaObject.Key: SchemaObject]) {
        created = after.filter { before[$0.key] == nil }.values.map(\.label).sorted()
        dropped = before.filter { after[$0.key] == nil }.values.map(\.label).sorted()
        redefined = after.compactMap { key, object -> String? in
            guard let old = before[key], old.normalizedSQL != object.normalizedSQL else { return nil }
            let gained = object.columns.filter { column in !old.columns.contains { $0.lowercased() == column.lowercased() } }
            let lost = old.columns.filter { column in !object.columns.contains { $0.lowercased() == column.lowercased() } }
            let delta = gained.map { "+" + $0 } + lost.map { "-" + $0 }
            return delta.isEmpty ? object.label : "\(object.label) (\(delta.joined(separator: ", ")))"
        }.sorted()
    }
}

extension SchemaObject {
    /// `table wine`.
    var label: String { "\(type) \(name)" }
}
