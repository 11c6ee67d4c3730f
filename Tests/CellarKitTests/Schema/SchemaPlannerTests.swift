import Testing

@testable import CellarKit

/// The planner's choices (ALTER TABLE or a rebuild), its text (copied, never re-printed), its refusals
/// and its proof.
@Suite struct SchemaPlannerTests {
    static func database(_ sql: String) throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute(sql)
        return database
    }

    static func plan(_ from: String, _ to: String, _ options: SchemaPlanner.Options = .init()) throws -> SchemaPlan {
        try SchemaPlanner.plan(from: try database(from), to: try database(to), options: options)
    }

    @Test func sameSchemaSpelledDifferentlyIsNoPlan() throws {
        let plan = try Self.plan(
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT); CREATE INDEX i ON wines (name);",
            "create table \"Wines\" (\n  id integer primary key, -- the key\n  name text\n);\ncreate index I on wines(name);")
        #expect(plan.isEmpty)
        #expect(plan.sql.isEmpty)
    }

    @Test func appendedColumnIsAddColumnWithItsDefinitionAsWritten() throws {
        let plan = try Self.plan(
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT);",
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT, price  REAL NOT NULL DEFAULT 0 CHECK (price >= 0));")
        #expect(plan.changes.map(\.kind) == [.alter])
        #expect(
            plan.changes[0].statements == ["ALTER TABLE \"wines\" ADD COLUMN price  REAL NOT NULL DEFAULT 0 CHECK (price >= 0)"])
    }

    @Test(arguments: [
        "stamp INTEGER DEFAULT (strftime('%s', 'now'))",  // not a constant default
        "code TEXT UNIQUE",
        "total INTEGER AS (id * 2) STORED",
    ])
    func columnAddColumnRefusesOnATableWithRowsIsARebuild(definition: String) throws {
        let plan = try Self.plan(
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT);",
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT, \(definition));")
        #expect(plan.changes.map(\.kind) == [.rebuild], "\(plan.sql)")
        #expect(plan.changes[0].statements[0].contains(definition), "the definition is copied as written")
    }

    @Test func columnInTheMiddleIsARebuildThatSaysSo() throws {
        let plan = try Self.plan(
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT, rating INTEGER);",
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, vintage INTEGER, rating INTEGER, name TEXT);")
        #expect(plan.changes.map(\.summary) == ["rebuild wines: adds column vintage, columns reordered"])
    }

    @Test func newNotNullColumnWithoutADefaultIsRefusedNamingIt() throws {
        #expect(throws: SchemaPlanError.notNullWithoutDefault(table: "wines", column: "shelf")) {
            try Self.plan(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY);",
                "CREATE TABLE wines (id INTEGER PRIMARY KEY, shelf INTEGER NOT NULL DEFAULT NULL);")
        }
    }

    @Test func droppableColumnIsDropColumnAndAnIndexedOneARebuild() throws {
        let from =
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT, note TEXT, rating INTEGER); CREATE INDEX r ON wines (rating);"
        let plain = try Self.plan(
            from, "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT, rating INTEGER); CREATE INDEX r ON wines (rating);",
            .init(allowsDrop: true))
        #expect(plain.changes.map(\.statements) == [["ALTER TABLE \"wines\" DROP COLUMN \"note\""]])
        #expect(plain.droppedColumns == ["wines.note"])
        let indexed = try Self.plan(
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT, rating INTEGER); CREATE INDEX r ON wines (name, rating);",
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT); CREATE INDEX r ON wines (name);", .init(allowsDrop: true))
        #expect(indexed.changes.map(\.kind) == [.redefine, .alter, .create], "\(indexed.sql)")
    }

    @Test func vanishedAndAppearingTableOfOneShapeNamesTheRename() throws {
        #expect(
            throws: SchemaPlanError.dropRefused(
                tables: ["notes"], columns: [], renames: [SchemaRename(table: "notes", newName: "remarks")])
        ) {
            try Self.plan(
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);",
                "CREATE TABLE remarks (id INTEGER PRIMARY KEY, body TEXT);")
        }
    }

    @Test(arguments: [
        ("nothing=else", "cannot rename nothing=else: the schema it starts from has no table nothing"),
        ("notes=missing", "cannot rename notes=missing: the desired schema has no table missing"),
        ("notes.nope=x", "cannot rename notes.nope=x: table notes has no column nope"),
        ("notes.body=absent", "cannot rename notes.body=absent: the desired table notes has no column absent"),
    ])
    func badRenameIsNamed(rename: String, message: String) throws {
        let options = SchemaPlanner.Options(renames: [try #require(SchemaRename(parsing: rename))])
        #expect {
            try Self.plan(
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);",
                "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);",
                options)
        } throws: { error in
            (error as? SchemaPlanError)?.description == message
        }
    }

    @Test func renameParsing() {
        #expect(SchemaRename(parsing: "a=b") == SchemaRename(table: "a", newName: "b"))
        #expect(SchemaRename(parsing: "t.a=b") == SchemaRename(table: "t", column: "a", newName: "b"))
        for bad in ["a", "=b", "a=", ".a=b", "t.=b"] { #expect(SchemaRename(parsing: bad) == nil, "\(bad)") }
        #expect(
            SchemaRename.undoing([SchemaRename(table: "a", newName: "b"), SchemaRename(table: "a", column: "x", newName: "y")])
                == [SchemaRename(table: "b", newName: "a"), SchemaRename(table: "b", column: "y", newName: "x")])
    }

    @Test func virtualTableChangeIsRefusedNotRebuilt() throws {
        #expect {
            try Self.plan("CREATE VIRTUAL TABLE docs USING fts5(body);", "CREATE VIRTUAL TABLE docs USING fts5(body, title);")
        } throws: { error in
            (error as? SchemaPlanError)?.description.hasPrefix(
                "cannot change table docs: it is a virtual table whose columns change (title comes), and a virtual table cannot be rebuilt by copying"
            )
                ?? false
        }
    }

    @Test func schemaOfAVirtualTableLoadsBackWithoutItsShadowTables() throws {
        let source = try Self.database("CREATE VIRTUAL TABLE docs USING fts5(body); CREATE TABLE notes (id INTEGER PRIMARY KEY);")
        let schema = try source.schemaSQL()
        #expect(!schema.contains("docs_data"))
        let copy = try Self.database(schema)
        #expect(try SchemaPlanner.plan(from: source, to: copy).isEmpty)
    }

    @Test func rehearsalFailsAPlanUnderWhichATableLosesRows() throws {
        let database = try Self.database(
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO wines (name) VALUES ('a'), ('b');")
        let kept = try Self.plan(
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT);",
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE);")
        #expect(try kept.rehearse(on: database) == [SchemaPlan.TableRows(table: "wines", before: 2, after: 2)])
        let losing = SchemaPlan(
            changes: [
                SchemaPlan.Change(
                    kind: .rebuild, object: "table wines", summary: "naive", statements: ["DELETE FROM wines WHERE id = 1"])
            ])
        #expect(throws: SchemaPlanError.rowsLost([SchemaPlan.TableRows(table: "wines", before: 2, after: 1)])) {
            try losing.rehearse(on: database)
        }
        #expect(try database.scalar("SELECT count(*) FROM wines") == .integer(2), "the rehearsal ran on a copy")
    }

    @Test func proofRefusesAPlanThatDoesNotReachTheDesiredSchema() throws {
        let from = try Self.database(
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, rating INTEGER); CREATE INDEX r ON wines (rating);")
        let to = try Self.database("CREATE TABLE wines (id INTEGER PRIMARY KEY, rating REAL); CREATE INDEX r ON wines (rating);")
        let planner = SchemaPlanner(from: from, to: to)
        let naive = SchemaPlan(changes: [
            SchemaPlan.Change(
                kind: .rebuild, object: "table wines", summary: "rebuild wines, forgetting its index",
                statements: [
                    "CREATE TABLE new_wines (id INTEGER PRIMARY KEY, rating REAL)", "INSERT INTO new_wines SELECT * FROM wines",
                    "DROP TABLE wines", "ALTER TABLE new_wines RENAME TO wines",
                ])
        ])
        #expect(throws: SchemaPlanError.unproved([SchemaDrift(type: "index", name: "r", kind: .removed)])) {
            try planner.prove(naive, start: try SchemaCatalog.read(from: from))
        }
        try planner.prove(try planner.plan(), start: try SchemaCatalog.read(from: from))
    }
}
