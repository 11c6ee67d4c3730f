import CellarKit

/// A migration history for fault tests: `count` migrations of varied kinds (tables with foreign keys
/// filled by recursive CTEs, indexes, added columns, views and triggers, table rebuilds), each logging
/// itself in `applied_log`, whose primary key makes a migration applied twice fail loudly.
public struct ReliabilityProject: Sendable {
    /// How many migrations.
    public let count: Int
    /// Rows each filling migration inserts.
    public let rows: Int

    /// Describes a project; nothing is written until ``write(into:)``.
    public init(count: Int = 50, rows: Int = 300) {
        self.count = count
        self.rows = rows
    }

    /// The migration files, in version order.
    public var files: [MigrationSource.File] {
        (1...count).map {
            MigrationSource.File(
                name: "\(WallClock.pad($0, to: 4))_step\($0).sql", text: sql(for: $0))
        }
    }

    /// Writes the files into `folder/migrations` and returns that folder.
    @discardableResult
    public func write(into folder: TemporaryDirectory) throws -> String {
        for file in files {
            try folder.write("migrations/\(file.name)", bytes: file.contents)
        }
        return folder.file("migrations")
    }

    /// How many migrations the ledger of the database at `path` records; 0 while it cannot be read (no
    /// file or ledger yet, or a writer committing), so that a test can poll it while cellar migrates.
    public static func appliedCount(at path: String) -> Int {
        let database = try? Database(path: path, options: .init(mode: .readOnly))
        guard case .integer(let count)? = try? database?.scalar("SELECT count(*) FROM cellar_migrations") else { return 0 }
        return Int(count)
    }

    private func sql(for version: Int) -> String {
        let log = "INSERT INTO applied_log (version) VALUES (\(version));\n"
        guard version > 1 else {
            return "CREATE TABLE applied_log (version INTEGER PRIMARY KEY);\n" + log
        }
        let fill = "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(rows))"
        // The latest table created by a version v ≡ 2 (mod 5), at or before `version`.
        let table = "t_\(version - (version + 3) % 5)"
        switch version % 5 {
        case 2:
            let parent = version > 5 ? "t_\(version - 5)" : nil
            let reference = parent.map { ", parent INTEGER REFERENCES \($0)(id)" } ?? ""
            let parentValue = parent == nil ? "" : ", 1 + (i % \(rows))"
            return """
                CREATE TABLE t_\(version) (id INTEGER PRIMARY KEY, payload TEXT NOT NULL\(reference));
                \(fill)
                INSERT INTO t_\(version) SELECT i, hex(randomblob(24))\(parentValue) FROM c;
                \(log)
                """
        case 3:
            return "CREATE INDEX \(table)_payload ON \(table) (payload);\n" + log
        case 4:
            return
                "ALTER TABLE \(table) ADD COLUMN note TEXT NOT NULL DEFAULT 'v\(version)';\nUPDATE \(table) SET note = 'n' || id;\n"
                + log
        case 0:
            return """
                CREATE VIEW v_\(version) AS SELECT id, payload FROM \(table) WHERE id % 2 = 0;
                CREATE TRIGGER \(table)_guard BEFORE DELETE ON \(table) BEGIN SELECT RAISE(ABORT, 'kept'); END;
                \(log)
                """
        default:
            return """
                DROP TRIGGER \(table)_guard;
                DROP VIEW v_\(version - 1);
                CREATE TABLE \(table)_new (id INTEGER PRIMARY KEY, payload TEXT NOT NULL CHECK (length(payload) = 48), note TEXT);
                INSERT INTO \(table)_new SELECT id, payload, note FROM \(table);
                DROP TABLE \(table);
                ALTER TABLE \(table)_new RENAME TO \(table);
                CREATE INDEX \(table)_payload ON \(table) (payload);
                \(log)
                """
        }
    }
}
