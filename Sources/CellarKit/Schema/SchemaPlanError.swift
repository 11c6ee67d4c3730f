/// A rename the planner was asked to make: a table (`column` nil) or a column of a table.
public struct SchemaRename: Sendable, Equatable, CustomStringConvertible {
    /// The table as the FROM schema names it.
    public let table: String
    /// The column as the FROM schema names it; nil when the table itself is renamed.
    public let column: String?
    /// The new name.
    public let newName: String

    /// A table rename (`column` nil) or a column rename.
    public init(table: String, column: String? = nil, newName: String) {
        self.table = table
        self.column = column
        self.newName = newName
    }

    /// `OLD=NEW` or `TABLE.OLD=NEW`, as it is written on a command line.
    public var description: String { column.map { "\(table).\($0)=\(newName)" } ?? "\(table)=\(newName)" }

    /// The renames that undo `renames`, for a plan back: each table to its old name, each column of a
    /// table (under the table's new name) to its old name.
    public static func undoing(_ renames: [SchemaRename]) -> [SchemaRename] {
        var tables: [String: String] = [:]
        for rename in renames where rename.column == nil { tables[SchemaCatalog.key(rename.table)] = rename.newName }
        return renames.map { rename in
            guard let column = rename.column else { return SchemaRename(table: rename.newName, newName: rename.table) }
            return SchemaRename(
                table: tables[SchemaCatalog.key(rename.table)] ?? rename.table, column: rename.newName, newName: column)
        }
    }

    /// Reads `OLD=NEW` or `TABLE.OLD=NEW`; nil when the text has neither form.
    public init?(parsing text: String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
        let old = text[..<equals]
        let new = String(text[text.index(after: equals)...])
        guard !new.isEmpty else { return nil }
        if let dot = old.firstIndex(of: ".") {
            let column = String(old[old.index(after: dot)...])
            guard dot != old.startIndex, !column.isEmpty else { return nil }
            self.init(table: String(old[..<dot]), column: column, newName: new)
        } else {
            self.init(table: String(old), newName: new)
        }
    }
}

/// Why ``SchemaPlanner`` wrote no plan.
public enum SchemaPlanError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Tables (`wines`) and columns (`wines.rating`) the plan would drop with their data, refused
    /// because dropping was not allowed; `renames` are the renames that would keep the data of a
    /// vanished object because an object of the same shape appears.
    case dropRefused(tables: [String], columns: [String], renames: [SchemaRename])
    /// A column the desired table adds as `NOT NULL` without a default: the table's existing rows have
    /// no value for it.
    case notNullWithoutDefault(table: String, column: String)
    /// A rename that names no table or column of the schemas, with why.
    case badRename(SchemaRename, reason: String)
    /// A change the planner does not make (a virtual table's definition changed, …), with why.
    case unsupported(object: String, reason: String)
    /// A statement of the plan failed on the in-memory copy of the FROM schema (its SQL and SQLite's
    /// message): the schemas cannot be reached from one another this way.
    case stepFailed(statement: String, message: String)
    /// The plan, applied to a copy of the FROM schema, does not reach the TO schema: a defect of the
    /// planner, reported instead of a plan that would be wrong.
    case unproved([SchemaDrift])
    /// Rehearsed on a copy of a database, the plan failed (SQLite's message, the statement).
    case rehearsalFailed(statement: String, message: String)
    /// Rehearsed on a copy of a database, the plan left rows that break a foreign key.
    case foreignKeyViolations(count: Int, tables: [String])
    /// Rehearsed on a copy of a database, tables the plan does not drop lost rows.
    case rowsLost([SchemaPlan.TableRows])

    /// A change to the virtual table `table` (`change` says which, as a clause), which the planner
    /// does not make: a rebuild copies rows with `INSERT … SELECT`, and a virtual table's rows are
    /// its module's (an FTS index, an R*Tree), with options and shadow tables no copy carries over.
    static func virtualTable(_ table: String, change: String) -> SchemaPlanError {
        .unsupported(
            object: "table \(table)",
            reason: "\(change), and a virtual table cannot be rebuilt by copying its rows (its module keeps them); "
                + "write this change in a migration of your own: drop the table, create it as desired, and fill it again")
    }

    /// One line saying what is wrong.
    public var description: String {
        switch self {
        case .dropRefused(let tables, let columns, _):
            let objects = tables.map { "table \($0)" } + columns.map { "column \($0)" }
            return "the plan would drop \(objects.joined(separator: ", ")) and the data in \(objects.count == 1 ? "it" : "them")"
        case .notNullWithoutDefault(let table, let column):
            return
                "column \(table).\(column) is new, NOT NULL and has no default: the rows already in \(table) have no value for it"
        case .badRename(let rename, let reason): return "cannot rename \(rename): \(reason)"
        case .unsupported(let object, let reason): return "cannot change \(object): \(reason)"
        case .stepFailed(let statement, let message):
            return "the plan fails on a copy of the schema it starts from: \(message) (in: \(statement))"
        case .rehearsalFailed(let statement, let message):
            return "the plan fails on a copy of the database: \(message) (in: \(statement))"
        case .foreignKeyViolations(let count, let tables):
            return
                "the plan leaves \(count) row\(count == 1 ? "" : "s") breaking a foreign key (in \(tables.joined(separator: ", ")))"
        case .rowsLost(let tables):
            return "the plan loses rows of tables it does not drop: " + tables.map(\.description).joined(separator: ", ")
        case .unproved(let drifts):
            return "the plan does not reach the desired schema (a cellar defect): "
                + drifts.map { $0.description }.joined(separator: "; ")
        }
    }
}
