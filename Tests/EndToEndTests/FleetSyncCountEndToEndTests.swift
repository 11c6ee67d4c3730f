import Glibc
import TestSupport
import Testing

/// Issue 26: what a fleet costs per fresh database, counted with strace (independent of the machine's
/// load), against `sqlite3 FILE` running the same migrations, each in its own `BEGIN`/`COMMIT` with its
/// version insert, after a `CREATE TABLE` of the ledger as the fleet-migrate bench row gives it.
///
/// Per database, cellar makes four syncs per migration (journal, journal header, database, zeroed journal
/// header) and one directory sync, when the database's journal is first created; sqlite3 makes four per
/// commit (journal, its directory, journal header, database) and commits once more, for the ledger. cellar
/// creates the ledger inside the first migration's transaction, creates the journal once per database
/// and deletes it once, at the end; sqlite3 creates and deletes it at every commit.
@Suite struct FleetSyncCountEndToEndTests {
    private static let databases = 4
    private static let migrations = 5

    /// The system calls named by `calls` that `executable arguments…` makes, one line each, from strace.
    private func trace(_ calls: String, _ executable: String, _ arguments: [String], in folder: TemporaryDirectory) throws
        -> [String]
    {
        let strace = try PeerTool.strace.require()
        let output = folder.file("trace-\(UInt32.random(in: 0...UInt32.max))")
        let result = try Shell.run(
            strace, ["-f", "-y", "-e", "trace=\(calls)", "-o", output, executable] + arguments,
            environment: Cellar.cleanEnvironment)
        #expect(result.status == 0, "\(result)")
        return try FileBytes.read(output).split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A call's lines (an interrupted call is written twice, `<unfinished ...>` and `resumed`).
    private func calls(_ name: String, in lines: [String]) -> [String] {
        lines.filter { $0.contains("\(name)(") && !$0.contains("resumed>") }
    }

    private func fixtures(in folder: TemporaryDirectory) throws -> (list: String, sqliteScript: String) {
        var script = """
            CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,
              applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'applied');

            """
        for index in 1...Self.migrations {
            let sql = """
                CREATE TABLE t_\(index) (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created TEXT);
                CREATE INDEX t_\(index)_by_name ON t_\(index) (name);
                INSERT INTO t_\(index) (name, created) VALUES ('a', '2026-11-29'), ('b', NULL);

                """
            try folder.write("migrations/\(index)_step_\(index).sql", sql)
            script +=
                "BEGIN;\n\(sql)INSERT INTO cellar_migrations VALUES (\(index), 'step_\(index)', 'x', 'now', 0, 'applied');\nCOMMIT;\n"
        }
        try folder.write("sqlite.sql", script)
        try folder.write("fleet/.keep", "")
        let list = (1...Self.databases).map { folder.file("fleet/tenant\($0).db") + "\n" }.joined()
        try folder.write("databases.txt", list)
        return (folder.file("databases.txt"), folder.file("sqlite.sql"))
    }

    @Test(.enabled(if: PeerTool.strace.isExpected, "\(PeerTool.strace.skipReason)"))
    func aFreshDatabaseSyncsFourTimesPerMigrationAndItsDirectoryOnce() throws {
        let folder = TemporaryDirectory()
        let (list, script) = try fixtures(in: folder)
        let lines = try trace(
            "fdatasync,fsync,unlink,unlinkat", Cellar.executablePath,
            ["migrate", "-q", "--jobs", "2", "--databases-from", list, "-m", folder.file("migrations")], in: folder)
        let syncs = calls("fdatasync", in: lines) + calls("fsync", in: lines)
        let directory = folder.file("fleet")
        for index in 1...Self.databases {
            let database = folder.file("fleet/tenant\(index).db")
            let own = syncs.filter { $0.contains("<\(database)>") || $0.contains("<\(database)-journal>") }
            #expect(own.count == 4 * Self.migrations, "tenant\(index): \(own.count) syncs of its files")
            let journalDeletions = calls("unlink", in: lines).filter { $0.contains("\"\(database)-journal\"") }
            #expect(journalDeletions.count == 1, "tenant\(index)'s journal deleted \(journalDeletions.count) times")
            #expect(access(database + "-journal", F_OK) != 0, "tenant\(index) keeps no journal")
            let state = try Shell.run(
                "/usr/bin/sqlite3", [database, "PRAGMA journal_mode; SELECT count(*) FROM cellar_migrations;"])
            #expect(state.output == "delete\n\(Self.migrations)\n", "tenant\(index): \(state)")
        }
        // One directory sync per database (its journal's entry); none per commit.
        let directorySyncs = syncs.filter { $0.contains("<\(directory)>") }
        #expect(directorySyncs.count == Self.databases, "\(directorySyncs.count) directory syncs")
        #expect(syncs.count == Self.databases * (4 * Self.migrations + 1), "\(syncs.count) syncs in all")

        // sqlite3 on the same statements, one process per database as `xargs -P 2 sqlite3` runs it.
        let peer = try trace(
            "fdatasync,fsync", "/usr/bin/sqlite3", [folder.file("peer.db"), ".read \(script)"], in: folder)
        let peerSyncs = calls("fdatasync", in: peer).count + calls("fsync", in: peer).count
        #expect(peerSyncs == 4 * (Self.migrations + 1), "sqlite3: \(peerSyncs) syncs, four per commit, the ledger's own included")
        #expect(syncs.count / Self.databases == peerSyncs - 3)
    }
}
