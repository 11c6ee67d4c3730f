import CellarKit
import TestSupport
import Testing

/// Issue 15 H8: new foreign-key violations in a `WITHOUT ROWID` table are told apart from old ones by
/// the child's key, and named by it.
@Suite struct WithoutRowidViolationTests {
    static let schema = """
        CREATE TABLE regions (code TEXT PRIMARY KEY);
        CREATE TABLE wines (region TEXT, name TEXT, code TEXT REFERENCES regions (code), PRIMARY KEY (region, name)) WITHOUT ROWID;
        INSERT INTO regions VALUES ('napa');

        """

    @Test func newOrphansFailTheMigrationEvenWithAnOldOneThere() throws {
        let project = try MigrationProject([
            "1_schema.sql": Self.schema,
            "2_orphans.sql": "INSERT INTO wines VALUES ('fr', 'Margaux', 'bordeaux'), ('it', 'Barolo''s', 'piemonte');\n",
        ])
        let database = try project.open()
        try project.migrator(database).migrate(to: 1)
        try database.execute("INSERT INTO wines VALUES ('us', 'old orphan', 'gone')")
        var warnings: [[ForeignKeyViolation]] = []
        let migrator = try project.migrator(database)
        migrator.observer = { if case .foreignKeyWarning(_, let old) = $0 { warnings.append(old) } }
        #expect {
            try migrator.migrate()
        } throws: { error in
            guard case .foreignKeyViolations(_, let violations, _) = error as? MigrationError else { return false }
            let described = violations.map(\.description)
            return described == [
                "wines (region, name) = ('fr', 'Margaux') has no parent row in regions",
                "wines (region, name) = ('it', 'Barolo''s') has no parent row in regions",
            ]
        }
        #expect(try project.versions(database) == [1])
        #expect(try database.scalar("SELECT group_concat(name) FROM wines") == .text("old orphan"))
        #expect(warnings.isEmpty)
    }

    @Test func theOldOrphanAloneIsOnlyAWarning() throws {
        let project = try MigrationProject([
            "1_schema.sql": Self.schema, "2_fine.sql": "INSERT INTO wines VALUES ('us', 'Monte Bello', 'napa');\n",
        ])
        let database = try project.open()
        try project.migrator(database).migrate(to: 1)
        try database.execute("INSERT INTO wines VALUES ('us', 'old orphan', 'gone')")
        var warnings: [[ForeignKeyViolation]] = []
        let migrator = try project.migrator(database)
        migrator.observer = { if case .foreignKeyWarning(_, let old) = $0 { warnings.append(old) } }
        try migrator.migrate()
        #expect(try project.versions(database) == [1, 2])
        #expect(
            warnings.map { $0.map(\.description) } == [
                ["wines (region, name) = ('us', 'old orphan') has no parent row in regions"]
            ])
    }
}
