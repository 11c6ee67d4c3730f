import Testing

@testable import CellarKit

/// Each classic schema change of the corpus, planned from a database holding rows, applied by the
/// migrator as `cellar migrate` applies a migration (foreign keys on in the connection, as apps run),
/// then checked with SQLite; and the same checks shown failing for a naive hand-written rebuild.
@Suite struct SchemaChangeCorpusTests {
    /// A database holding `change`'s FROM schema and rows, with foreign keys on.
    static func seeded(_ change: SchemaChangeCase) throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute(change.from)
        try database.execute(change.rows)
        try database.execute("PRAGMA foreign_keys = ON")
        return database
    }

    static func desired(_ change: SchemaChangeCase) throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute(change.to)
        return database
    }

    static func options(_ change: SchemaChangeCase) -> SchemaPlanner.Options {
        SchemaPlanner.Options(renames: change.renames.compactMap(SchemaRename.init(parsing:)), allowsDrop: change.allowsDrop)
    }

    @Test func corpusCoversAtLeastTwentyFivePatterns() {
        #expect(SchemaChangeCorpus.cases.count >= 25)
        #expect(Set(SchemaChangeCorpus.cases.map(\.name)).count == SchemaChangeCorpus.cases.count)
    }

    @Test(arguments: SchemaChangeCorpus.cases)
    func planAppliedByTheMigratorKeepsEverything(change: SchemaChangeCase) throws {
        let database = try Self.seeded(change)
        let desired = try Self.desired(change)
        let before = try DataSnapshot(database)
        let plan: SchemaPlan
        do {
            plan = try SchemaPlanner.plan(from: database, to: desired, options: Self.options(change))
        } catch let error as SchemaPlanError {
            let refusal = try #require(change.refusal, "refused: \(error)")
            #expect(error.description.hasPrefix(refusal), "\(error)")
            #expect(try DataSnapshot(database) == before)
            return
        }
        #expect(change.refusal == nil, "planned what must be refused:\n\(plan.sql)")
        #expect(!plan.isEmpty)
        let text = "-- migrate:up\n\(plan.sql)\n-- migrate:down\n"
        let migration = try MigrationParser.parse(Array(text.utf8), fileName: "0001_plan.sql", path: "0001_plan.sql")
        _ = try Migrator(database: database, migrations: [migration]).migrate()
        #expect(try database.scalar("PRAGMA foreign_keys") == .integer(1))
        let problems = try SchemaChangeChecks.problems(in: database, before: before, desired: desired, change: change)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))\nplan:\n\(plan.sql)")
    }

    /// The rebuild as it is often written by hand (and by tools that use `legacy_alter_table`):
    /// create, copy, drop, rename, with foreign keys on; no index, trigger or view recreated, no
    /// counter carried over.
    static func applyNaiveRebuild(_ change: SchemaChangeCase, to database: Database, desired: Database) throws {
        let wanted = try SchemaCatalog.read(from: desired)
        let current = try SchemaCatalog.read(from: database)
        try database.execute("PRAGMA legacy_alter_table = ON")
        try database.transaction {
            for table in wanted.orderedTables {
                guard let old = current.table(table.name), old.object.normalizedSQL != table.object.normalizedSQL else {
                    continue
                }
                let shared = table.columns.filter { $0.holdsData && old.column($0.name) != nil }.map {
                    PlanBuilder.quoted($0.name)
                }
                .joined(separator: ", ")
                try database.execute(try #require(DefinitionText(table.object.sql).renamingTable(to: "new_table")))
                try database.execute("INSERT INTO new_table (\(shared)) SELECT \(shared) FROM \(PlanBuilder.quoted(old.name))")
                try database.execute("DROP TABLE \(PlanBuilder.quoted(old.name))")
                try database.execute("ALTER TABLE new_table RENAME TO \(PlanBuilder.quoted(table.name))")
            }
        }
        try database.execute("PRAGMA legacy_alter_table = OFF")
    }

    @Test(arguments: SchemaChangeCorpus.cases.filter(\.naiveLoses))
    func naiveRebuildFailsTheSameChecks(change: SchemaChangeCase) throws {
        let database = try Self.seeded(change)
        let desired = try Self.desired(change)
        let before = try DataSnapshot(database)
        try Self.applyNaiveRebuild(change, to: database, desired: desired)
        let problems = try SchemaChangeChecks.problems(in: database, before: before, desired: desired, change: change)
        #expect(!problems.isEmpty)
    }
}
