import Testing
@testable import CellarKit

/// How a remote migration learns that no foreign key exists, so that it may leave out
/// `PRAGMA foreign_key_check`: the schema's side is read by SQL under the write lock, the migration's
/// side from its text. Both must err towards checking.
@Suite struct ForeignKeyDeclarationTests {
    @Test(arguments: [
        ("CREATE TABLE a (x INTEGER REFERENCES b (y));", true),
        ("create table a (x integer ReFeReNcEs b);", true),
        ("ALTER TABLE a ADD COLUMN b_id INTEGER REFERENCES b;", true),
        ("CREATE TABLE a (x, FOREIGN KEY (x) REFERENCES b (y));", true),
        ("-- references in a comment\nCREATE TABLE a (x);", true),
        ("PRAGMA writable_schema = ON;", true),
        ("CREATE TABLE a (x); INSERT INTO a VALUES (1); DELETE FROM b;", false),
        ("CREATE TABLE referee (x);", false),
        ("CREATE TABLE \"é\" (x INTEGER REFERENCES", true),
        ("PRAGMA WRITABLE_SCHEMA", true),
        ("REFERENCE", false),
        ("", false),
    ])
    func aMigrationMayDeclareAForeignKeyOnlyWhenItsTextSaysSo(sql: String, mayDeclare: Bool) {
        #expect(ForeignKeyCheck.mayDeclareForeignKeys(sql) == mayDeclare, "\(sql)")
    }

    private func anyDeclaration(after setup: String) throws -> Bool {
        let database = try Database(path: ":memory:")
        try database.execute(setup)
        return try database.scalar("SELECT \(ForeignKeyCheck.anyDeclarationSQL)") != .integer(0)
    }

    @Test(arguments: [
        ("CREATE TABLE b (y PRIMARY KEY); CREATE TABLE a (x REFERENCES b (y));", true),
        ("CREATE TABLE b (y PRIMARY KEY); CREATE TABLE a (x); ALTER TABLE a ADD COLUMN z references b;", true),
        ("PRAGMA case_sensitive_like = ON; CREATE TABLE b (y PRIMARY KEY); CREATE TABLE a (x REFERENCES b);", true),
        ("CREATE TABLE b (y PRIMARY KEY); CREATE TEMP TABLE a (x REFERENCES b);", true),
        ("CREATE TABLE b (y PRIMARY KEY); CREATE TABLE a (x); CREATE INDEX a_x ON a (x);", false),
        ("CREATE TABLE b (y PRIMARY KEY); CREATE VIEW v AS SELECT 'references' FROM b;", false),
        ("", false),
    ])
    func theSchemaMayHoldAForeignKeyOnlyWhenATablesTextSaysSo(setup: String, holds: Bool) throws {
        #expect(try anyDeclaration(after: setup) == holds, "\(setup)")
    }

    @Test func whereTheSQLSaysNoneForeignKeyCheckFindsNoneEither() throws {
        let database = try Database(path: ":memory:")
        try database.execute(
            "CREATE TABLE b (y PRIMARY KEY); CREATE TABLE a (x, y); INSERT INTO a VALUES (1, 2); PRAGMA foreign_keys = OFF")
        #expect(try database.scalar("SELECT \(ForeignKeyCheck.anyDeclarationSQL)") == .integer(0))
        #expect(try ForeignKeyCheck.violations(in: database).isEmpty)
        try database.execute("ALTER TABLE a ADD COLUMN z REFERENCES b; UPDATE a SET z = 9")
        #expect(try database.scalar("SELECT \(ForeignKeyCheck.anyDeclarationSQL)") == .integer(1))
        #expect(try ForeignKeyCheck.violations(in: database).count == 1)
    }
}
