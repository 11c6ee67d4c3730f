import CellarKit
import TestSupport
import Testing

/// The data-loss corpus's shared project: a media library whose table has an index, a trigger, an
/// `AUTOINCREMENT` counter and children that go with their parent (`ON DELETE CASCADE`).
enum LintCorpus {
    static let base = """
        -- migrate:up
        CREATE TABLE media (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, rating INTEGER);
        CREATE INDEX media_by_title ON media (title);
        CREATE TABLE audit (entry TEXT);
        CREATE TRIGGER media_audit AFTER INSERT ON media BEGIN INSERT INTO audit VALUES (new.title); END;
        CREATE TABLE subtitles (id INTEGER PRIMARY KEY, media_id INTEGER REFERENCES media (id) ON DELETE CASCADE, lang TEXT);
        -- migrate:down
        DROP TABLE subtitles; DROP TABLE audit; DROP TABLE media;

        """

    /// The rebuild of `media` done right (SQLite's "making other kinds of table schema changes"):
    /// copy, carry the AUTOINCREMENT counter over, drop, rename, recreate the index and the trigger.
    static let rebuildParts = [
        "CREATE TABLE media_new (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, rating INTEGER);",
        "INSERT INTO media_new SELECT * FROM media;",
        "UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'media') WHERE name = 'media_new';",
        "DROP TABLE media;",
        "ALTER TABLE media_new RENAME TO media;",
        "CREATE INDEX media_by_title ON media (title);",
        "CREATE TRIGGER media_audit AFTER INSERT ON media BEGIN INSERT INTO audit VALUES (new.title); END;",
    ]

    /// The rebuild without the parts containing any of `left`.
    static func rebuild(leaving left: [String] = []) -> String {
        rebuildParts.filter { part in !left.contains { part.contains($0) } }.joined(separator: "\n") + "\n"
    }

    /// A project at version 1 holding media 1–4 (5 was deleted, so `sqlite_sequence` says 5) and three
    /// subtitles; `pending` is written after the first migrate.
    static func project(base: String = base, pending: [String: String], data: String = defaultData) throws -> CLIProject {
        let project = try CLIProject(["0001_media.sql": base])
        let migrated = project.run(["migrate"])
        #expect(migrated.status == 0, "\(migrated)")
        try Database(path: project.databasePath).execute(data)
        for (name, text) in pending { try project.folder.write("migrations/\(name)", text) }
        return project
    }

    static let defaultData = """
        INSERT INTO media (title, rating) VALUES ('a', 1), ('b', 2), ('c', 3), ('d', 4), ('e', 5);
        DELETE FROM media WHERE id = 5;
        INSERT INTO subtitles (media_id, lang) VALUES (1, 'en'), (2, 'fr'), (3, 'de');
        """

    /// The naive run: `sql` executed as plain SQL on a copy of the project's database, as a hand-rolled
    /// runner (or `sqlite3 db < file`) runs it, with foreign keys as an app connection has them.
    static func naive(_ project: CLIProject, _ sql: String, foreignKeys: Bool = false) throws -> Database {
        let copy = try Database(path: ":memory:")
        try Database(path: project.databasePath, options: .init(mode: .readOnly)).backup(to: copy)
        try copy.execute("PRAGMA foreign_keys = \(foreignKeys ? "ON" : "OFF")")
        try copy.execute(sql)
        return copy
    }

    static func count(_ database: Database, _ sql: String) throws -> Int64 {
        if case .integer(let value) = try database.scalar(sql) { return value }
        return -1
    }

    /// `cellar lint`'s findings: the lines of standard output that name a place.
    static func findings(_ run: InProcessRun) -> [String] {
        var found: [String] = []
        for line in run.output.split(separator: "\n") where !line.hasPrefix(" ") {
            guard let folder = line.firstRange(of: "migrations/") else { continue }
            found.append(String(line[folder.upperBound...]))
        }
        return found
    }
}
