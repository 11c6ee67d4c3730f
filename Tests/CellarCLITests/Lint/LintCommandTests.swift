import CellarKit
import Foundation
import TestSupport
import Testing

/// `cellar lint`, `cellar test` and the dry runs as commands: silencing a rule, the formats, what they
/// read, and that they change nothing.
@Suite struct LintCommandTests {
    private static let purge = "-- migrate:up\nDELETE FROM subtitles;\nDELETE FROM audit;\n"

    @Test func anAllowCommentSilencesTheRuleForItsStatement() throws {
        let text = "-- migrate:up\nDELETE FROM subtitles;\n-- cellar:allow destructive\nDELETE FROM audit;\n"
        let project = try LintCorpus.project(pending: ["0002_purge.sql": text])
        #expect(
            LintCorpus.findings(project.run(["lint"])) == [
                "0002_purge.sql:2:1: warning[destructive]: DELETE without WHERE removes every row of subtitles"
            ])
    }

    @Test func anAllowCommentBeforeTheFirstStatementSilencesTheWholeFile() throws {
        let project = try LintCorpus.project(pending: ["0002_purge.sql": "-- cellar:allow destructive\n" + Self.purge])
        let lint = project.run(["lint", "--strict"])
        #expect(lint.status == 0 && LintCorpus.findings(lint).isEmpty, "\(lint)")
        try project.folder.write("migrations/0002_purge.sql", "-- cellar:allow not-atomic\n" + Self.purge)
        #expect(LintCorpus.findings(project.run(["lint"])).count == 2)
    }

    /// Synapse drops a table's partial index with the table and queues a background job to build it
    /// again, naming it in a string: the migration knows the index goes.
    @Test func anIndexTheMigrationNamesIsNoOversight() throws {
        let up = LintCorpus.rebuild(leaving: ["CREATE INDEX"]) + "INSERT INTO audit VALUES ('media_by_title');\n"
        let project = try LintCorpus.project(pending: ["0002_rebuild_media.sql": "-- migrate:up\n" + up])
        let lint = project.run(["lint"])
        #expect(lint.status == 0 && LintCorpus.findings(lint).isEmpty, "\(lint)")
    }

    @Test func aPredecessorThatFailsToReplayIsTheReplaysError() throws {
        let project = try LintCorpus.project(pending: ["0003_more.sql": "-- migrate:up\nCREATE TABLE more (id INTEGER);\n"])
        try project.folder.write("migrations/0002_broken.sql", "-- migrate:up\nCREATE INDEX x ON nowhere (id);\n")
        let lint = project.run(["lint", project.folder.file("migrations/0003_more.sql")])
        #expect(lint.status == 1)
        #expect(
            lint.error.contains("0002_broken.sql:2:1: error: replaying migration 0002 failed: no such table: main.nowhere"),
            "\(lint)")
    }

    @Test func findingsComeWithTheSourceLineAndACaret() throws {
        let project = try LintCorpus.project(pending: ["0002_purge.sql": "-- migrate:up\n  DELETE FROM subtitles;\n"])
        let lines = project.run(["lint"]).output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(
            lines[0].hasSuffix("0002_purge.sql:2:3: warning[destructive]: DELETE without WHERE removes every row of subtitles"))
        #expect(lines[1] == "    2 |   DELETE FROM subtitles;")
        #expect(lines[2] == "      |   ^")
    }

    @Test func onlyPendingMigrationsUnlessAllOrFilesAreNamed() throws {
        let project = try LintCorpus.project(pending: ["0002_purge.sql": Self.purge])
        let checked = { (arguments: [String]) -> [String] in
            let run = project.run(["lint", "--format", "json"] + arguments)
            let object = try JSONSerialization.jsonObject(with: Data(run.outputBytes)) as? [String: Any]
            return (object?["checked"] as? [String] ?? []).map { String($0.split(separator: "/").last!) }
        }
        #expect(try checked([]) == ["0002_purge.sql"])
        #expect(try checked(["--all"]) == ["0001_media.sql", "0002_purge.sql"])
        #expect(try checked([project.folder.file("migrations/0001_media.sql")]) == ["0001_media.sql"])
    }

    @Test func jsonHasOneObjectPerFinding() throws {
        let project = try LintCorpus.project(pending: ["0002_purge.sql": Self.purge])
        let run = project.run(["lint", "--format", "json"])
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.outputBytes)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 2)
        #expect(findings[0]["rule"] as? String == "destructive")
        #expect(findings[0]["severity"] as? String == "warning")
        #expect(findings[0]["line"] as? Int == 2 && findings[0]["column"] as? Int == 1)
        #expect(object["warnings"] as? Int == 2 && object["errors"] as? Int == 0)
    }

    /// The fields SARIF 2.1.0's schema requires (<https://json.schemastore.org/sarif-2.1.0.json>):
    /// `version` and `runs`; each run's `tool.driver.name`; each rule's `id`; each result's `message.text`,
    /// with a `level` of the schema's enum and a region whose line and column start at 1.
    @Test func sarifHasTheShapeTheSchemaRequires() throws {
        let project = try LintCorpus.project(pending: [
            "0002_purge.sql": Self.purge, "0003_drop.sql": "-- migrate:up\nDROP INDEX nothing_here;\n",
        ])
        let run = project.run(["lint", "--format", "sarif"])
        #expect(run.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(run.outputBytes)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "cellar")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        #expect(ids.count == rules.count && ids.contains("lost-object") && ids.contains("sqlite-error"))
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == 3)
        for result in results {
            #expect((result["message"] as? [String: Any])?["text"] is String)
            #expect(["none", "note", "warning", "error"].contains(result["level"] as? String ?? ""))
            let ruleID = try #require(result["ruleId"] as? String)
            #expect(ids[try #require(result["ruleIndex"] as? Int)] == ruleID)
            let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            #expect(((location["artifactLocation"] as? [String: Any])?["uri"] as? String)?.hasSuffix(".sql") == true)
            let region = try #require(location["region"] as? [String: Any])
            #expect((region["startLine"] as? Int ?? 0) >= 1 && (region["startColumn"] as? Int ?? 0) >= 1)
        }
        #expect(results.last?["ruleId"] as? String == "sqlite-error")
    }

    @Test(arguments: [
        (["lint", "--format", "xml"], "option '--format' expects text, json or sarif, not 'xml'"),
        (["lint", "--min-sqlite", "3.x"], "option '--min-sqlite' expects a version such as 3.35.0, not '3.x'"),
        (["test", "--all", "--against", "x.db"], "--all tests every migration from an empty database"),
    ])
    func badOptionsAreUsageErrors(_ arguments: [String], _ message: String) throws {
        let project = try LintCorpus.project(pending: [:])
        let run = project.run(arguments)
        #expect(run.status == 2)
        #expect(run.error.contains(message), "\(run)")
    }

    /// lint, test and both dry runs only read: the database stays byte for byte as it was and no file
    /// appears beside it (nor anywhere in the project).
    @Test func theChecksChangeNothing() throws {
        let seed =
            "INSERT INTO media (title) VALUES ('z');\nINSERT INTO subtitles (media_id, lang) VALUES (last_insert_rowid(), 'it');\n"
        let project = try LintCorpus.project(pending: [
            "0002_rebuild_media.sql": "-- migrate:up\n" + LintCorpus.rebuild() + "-- migrate:down\nSELECT 1;\n"
        ])
        try project.folder.write("seeds/0001_more.sql", seed)
        let before = try FileBytes.read(project.databasePath)
        let files = try DirectoryListing.fileNames(in: project.folder.path).sorted()
        for arguments in [
            ["lint"], ["lint", "--all", "--against", project.databasePath], ["test"], ["test", "--all"],
            ["test", "--against", project.databasePath], ["migrate", "--dry-run"], ["setup", "--dry-run"],
        ] {
            let run = project.run(arguments)
            #expect(run.status <= 1, "\(arguments): \(run)")
            #expect(try FileBytes.read(project.databasePath) == before, "\(arguments) changed the database")
            #expect(try DirectoryListing.fileNames(in: project.folder.path).sorted() == files, "\(arguments) created a file")
        }
        let missing = project.folder.file("none.db")
        let run = InProcessRun([
            "setup", "--dry-run", "-d", missing, "-m", project.migrationsPath, "--seeds", project.folder.file("seeds"),
        ])
        #expect(run.status == 0, "\(run)")
        #expect(!DirectoryListing.isRegularFile(missing))
    }

    @Test func setupDryRunBootstrapsFromNothingAndCatchesASeedForAnOlderSchema() throws {
        let project = try LintCorpus.project(pending: [
            "0002_drop_rating.sql": "-- migrate:up\nALTER TABLE media DROP COLUMN rating;\n"
        ])
        try project.folder.write("seeds/0001_media.sql", "INSERT INTO media (title, rating) VALUES ('x', 1);\n")
        let run = project.run(["setup", "--dry-run"])
        #expect(run.status == 1)
        #expect(run.error.contains("0001_media.sql:1:1: error: table media has no column named rating"), "\(run)")
        #expect(run.error.contains("the database was not changed"), "\(run)")
        try project.folder.write("seeds/0001_media.sql", "INSERT INTO media (title) VALUES ('x');\n")
        let fixed = project.run(["setup", "--dry-run"])
        #expect(fixed.status == 0, "\(fixed)")
        #expect(fixed.output.hasPrefix("0001_media: 5 statements, 0 rows changed, created "), "\(fixed)")
        #expect(fixed.output.contains("seeds/0001_media.sql: 1 statement, 2 rows changed\n"), "\(fixed)")
        #expect(fixed.output.contains("dry run: a new database would get 2 migrations and 1 seed ("), "\(fixed)")
    }

    @Test func migrateDryRunReportsRowCountsBeforeAndAfter() throws {
        let project = try LintCorpus.project(pending: ["0002_purge.sql": "-- migrate:up\nDELETE FROM subtitles WHERE id < 3;\n"])
        let run = project.run(["migrate", "--dry-run"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("0002_purge: 1 statement, 2 rows changed, rows: subtitles 3 → 1, "), "\(run)")
    }
}
