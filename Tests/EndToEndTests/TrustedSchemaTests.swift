import CellarKit
import TestSupport
import Testing

/// `trusted_schema` keeps SQLite's default, so a database with an index on `json_extract(…)` (real
/// applications ship them) opens in every command; `--safe` turns it off and says why the file does
/// not open, and that it opens without `--safe` when trusted.
@Suite struct TrustedSchemaTests {
    private func project() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try folder.write(
            "migrations/0001_audit_logs.sql",
            """
            -- migrate:up
            CREATE TABLE audit_logs (id INTEGER PRIMARY KEY, details TEXT);
            CREATE INDEX idx_audit_logs_client_name ON audit_logs (json_extract(details, '$.client_name'));
            INSERT INTO audit_logs (details) VALUES ('{"client_name": "ridge"}');
            -- migrate:down
            DROP TABLE audit_logs;

            """)
        let migrated = try Cellar.run(["migrate", "-d", "app.db"], in: folder.path)
        #expect(migrated.status == 0, "\(migrated)")
        return folder
    }

    @Test func aJSONIndexDatabaseOpensInSchemaQueryAndShell() throws {
        let folder = try project()
        let schema = try Cellar.run(["schema", "-d", "app.db"], in: folder.path)
        #expect(schema.status == 0, "\(schema)")
        #expect(schema.output.contains("idx_audit_logs_client_name"))
        let query = try Cellar.run(
            ["query", "SELECT json_extract(details, '$.client_name') FROM audit_logs", "-d", "app.db"], in: folder.path)
        #expect(query.status == 0, "\(query)")
        #expect(query.output == "ridge\n")
        let shell = try Cellar.run(["shell", "-d", "app.db"], in: folder.path, input: "SELECT count(*) FROM audit_logs;\n")
        #expect(shell.status == 0, "\(shell)")
        #expect(shell.output == "1\n")
    }

    @Test(arguments: [["query", "SELECT count(*) FROM audit_logs"], ["shell"]])
    func underSafeTheFileIsRefusedWithTheReasonAndTheWayOut(_ command: [String]) throws {
        let folder = try project()
        let before = try FileBytes.read(folder.file("app.db"))
        let result = try Cellar.run(
            command + ["--safe", "-d", "app.db"], in: folder.path, input: "SELECT count(*) FROM audit_logs;\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.error.contains("unsafe use of json_extract()"), "\(result)")
        #expect(result.error.contains("opens without --safe"), "\(result)")
        #expect(try FileBytes.read(folder.file("app.db")) == before)
    }
}
