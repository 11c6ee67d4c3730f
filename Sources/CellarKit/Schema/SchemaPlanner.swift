/// Writes the SQL that turns one schema (FROM) into another (TO) and proves it: what `ALTER TABLE` can
/// do it does, every other change to a table is the 12-step rebuild of SQLite's documentation
/// (<https://sqlite.org/lang_altertable.html#otheralter>), and the plan is run on an in-memory copy of
/// the FROM schema and must reach the TO schema, compared as `verify --schema` compares, before it is
/// returned.
///
/// ```swift
/// let current = try Database(path: "app.db")
/// let desired = try Database(path: ":memory:")
/// try desired.execute(try String(contentsOfFile: "schema.sql", encoding: .utf8))
/// let plan = try SchemaPlanner.plan(from: current, to: desired)
/// print(plan.sql)
/// ```
///
/// Facts come from SQLite's introspection (`sqlite_schema`, `pragma_table_list`, `pragma_table_xinfo`,
/// `pragma_foreign_key_list`); the text of a column's definition and of every created object is copied
/// from the TO schema's `sqlite_schema`, as it was written. Neither connection is changed.
public struct SchemaPlanner {
    /// What the planner may do beyond what the schemas say.
    public struct Options: Sendable, Equatable {
        /// Tables and columns to rename rather than drop and create.
        public var renames: [SchemaRename]
        /// Whether the plan may drop tables and columns, and the data in them.
        public var allowsDrop: Bool

        /// No renames, no drops.
        public init(renames: [SchemaRename] = [], allowsDrop: Bool = false) {
            self.renames = renames
            self.allowsDrop = allowsDrop
        }
    }

    let from: any SQLConnection
    let to: any SQLConnection
    let options: Options

    /// A planner from the schema of `from` to the schema of `to`.
    package init(from: any SQLConnection, to: any SQLConnection, options: Options = Options()) {
        self.from = from
        self.to = to
        self.options = options
    }

    /// The proved plan from the schema of `from` to the schema of `to`.
    ///
    /// - Returns: the plan; empty when the schemas are the same.
    /// - Throws: ``SchemaPlanError`` when no plan may or can be written, ``SQLiteError`` when a schema
    ///   cannot be read.
    public static func plan(from: Database, to: Database, options: Options = Options()) throws -> SchemaPlan {
        try SchemaPlanner(from: from, to: to, options: options).plan()
    }

    /// The proved plan.
    ///
    /// - Throws: ``SchemaPlanError`` or ``SQLiteError``.
    package func plan() throws -> SchemaPlan {
        let start = try SchemaCatalog.read(from: from)
        let target = try SchemaCatalog.read(from: to)
        let pairing = try TablePairing(start: start, target: target, renames: options.renames)
        try pairing.checkVirtualTables()
        try pairing.checkDrops(allowed: options.allowsDrop)
        try pairing.checkNewColumns()
        let work = try SchemaCopy.empty(like: from, holding: start)
        var builder = PlanBuilder(work: work, desired: to, target: target, pairing: pairing)
        try builder.build()
        let plan = SchemaPlan(
            changes: builder.changes, droppedTables: pairing.vanishedTables.map(\.name),
            droppedColumns: pairing.pairs.flatMap { old, new in
                pairing.vanishedColumns(of: old, in: new).map { "\(old.name).\($0.name)" }
            })
        try prove(plan, start: start)
        return plan
    }

    /// Runs `plan` on a fresh copy of the FROM schema, as the migrator runs a migration (one
    /// transaction, foreign keys off), and compares the schema it leaves with the TO schema.
    func prove(_ plan: SchemaPlan, start: SchemaCatalog) throws {
        let proof = try SchemaCopy.empty(like: from, holding: start)
        do {
            try proof.transaction { try proof.execute(plan.sql) }
        } catch let error as SQLiteError {
            throw SchemaPlanError.stepFailed(statement: error.failingStatement ?? "", message: error.message)
        }
        let drifts = try Migrator.differences(
            live: Self.withoutShadowTables(SchemaObject.all(in: proof), in: proof),
            expected: Self.withoutShadowTables(SchemaObject.all(in: to), in: to))
        guard drifts.isEmpty else { throw SchemaPlanError.unproved(drifts) }
    }

    /// `objects` without the shadow tables of `connection`'s virtual tables: their modules make them
    /// (a renamed FTS5 table renames its own, quoting the names its own way), the plan never does.
    private static func withoutShadowTables(_ objects: [SchemaObject.Key: SchemaObject], in connection: any SQLConnection)
        throws -> [SchemaObject.Key: SchemaObject]
    {
        let shadows = Set(
            try connection.query("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'").map {
                SchemaObject.Key(typeRank: 0, name: $0[0].ledgerText.lowercased())
            })
        return shadows.isEmpty ? objects : objects.filter { !shadows.contains($0.key) }
    }
}

extension SQLiteError {
    /// The statement of ``sql`` that ``offset`` points into, up to its end, when both are known.
    var failingStatement: String? {
        guard let sql, let offset else { return nil }
        let bytes = Array(sql.utf8)
        guard offset < bytes.count else { return nil }
        let tail = bytes[offset...]
        let end = tail.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }
}
