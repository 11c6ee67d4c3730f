/// One difference between a database's schema and the schema its applied migrations create.
public struct SchemaDrift: Sendable, Equatable, CustomStringConvertible {
    /// How the object differs.
    public enum Kind: Sendable, Equatable {
        /// In the database, but no applied migration creates it.
        case added
        /// Created by the applied migrations, but not in the database.
        case removed
        /// In both, defined differently.
        case changed(addedColumns: [String], removedColumns: [String])
    }

    /// `table`, `index`, `view` or `trigger`.
    public let type: String
    /// The object's name.
    public let name: String
    /// How it differs.
    public let kind: Kind

    /// One line: `index idx_x is in the database but no migration creates it`.
    public var description: String {
        let object = "\(type) \(name)"
        switch kind {
        case .added: return "\(object) is in the database but no migration creates it"
        case .removed: return "\(object) is created by the migrations but is not in the database"
        case .changed(let added, let removed):
            var parts: [String] = []
            if !added.isEmpty {
                parts.append(
                    "has column\(added.count == 1 ? "" : "s") \(added.joined(separator: ", ")) that no migration creates")
            }
            if !removed.isEmpty {
                parts.append(
                    "lacks column\(removed.count == 1 ? "" : "s") \(removed.joined(separator: ", ")) that the migrations create")
            }
            if parts.isEmpty { return "\(object) is defined differently from what the migrations create" }
            return "\(object) \(parts.joined(separator: " and "))"
        }
    }
}
