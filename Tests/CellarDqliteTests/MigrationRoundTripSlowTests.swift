import CellarKit
import DqliteClient
import TestSupport
import Testing

@testable import CellarDqlite

/// What one migration costs on a real cluster, in requests and in replies waited for: no more round
/// trips than go-dqlite's `dqlite` shell takes for the same statements (`BEGIN`, the statements,
/// `COMMIT`).
@Suite(.serialized, .enabled(if: DqliteCluster.unavailableReason == nil, "\(DqliteCluster.unavailableReason ?? "")"))
struct MigrationRoundTripSlowTests {
    /// The benchmark's migrations: a table, an index and three rows.
    private static func migrations(_ count: Int) throws -> [Migration] {
        try MigrationSource.files(
            (1...count).map { index in
                .init(
                    name: "\(String(repeating: "0", count: 4 - String(index).count))\(index)_step_\(index).sql",
                    text: """
                        CREATE TABLE t_\(index) (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created TEXT);
                        CREATE INDEX t_\(index)_by_name ON t_\(index) (name);
                        INSERT INTO t_\(index) (name, created) VALUES ('a', '2026-11-29'), ('b', '2026-11-29'), ('c', NULL);

                        """)
            }
        ).load()
    }

    /// Requests and round trips of migrating `database` from version 2 to `count`, after a first run
    /// to version 2 (which creates the ledger and learns the schema).
    private func cost(of count: Int, database name: String, on cluster: DqliteCluster) throws -> (
        requests: Int, roundTrips: Int, localPrepares: Int, localSchemaRuns: Int, takenAhead: Int
    ) {
        let database = try RemoteDatabase(DqliteURL(cluster.url(name)), busyTimeout: 30_000)
        let connection = try RemoteConnection(database)
        let migrator = Migrator(connection: connection, migrations: try Self.migrations(count))
        migrator.observer = { connection.observe($0) }
        try migrator.migrate(Migrator.Options(target: 2))
        let requests = database.connection.requestCount
        let roundTrips = database.connection.roundTripCount
        let localPrepares = connection.localPrepareCount
        let localSchemaRuns = connection.localSchemaRunCount
        let takenAhead = connection.takenAheadCount
        try migrator.migrate()
        #expect(try migrator.currentVersion() == Int64(count))
        return (
            database.connection.requestCount - requests, database.connection.roundTripCount - roundTrips,
            connection.localPrepareCount - localPrepares, connection.localSchemaRunCount - localSchemaRuns,
            connection.takenAheadCount - takenAhead
        )
    }

    /// The difference between a run of 2 migrations and one of 6 is what 4 migrations cost, whatever a
    /// run costs once (reading the ledger, the applied list). Before the `BEGIN IMMEDIATE` went with
    /// the ledger lookup it was 4 round trips; the shell takes 3.
    @Test func aMigrationTakesThreeRoundTripsLikeTheShell() throws {
        let cluster = try DqliteCluster()
        let short = try cost(of: 4, database: "short", on: cluster)
        let long = try cost(of: 8, database: "long", on: cluster)
        #expect((long.roundTrips - short.roundTrips) == 4 * 3, "\(short) \(long)")
        #expect((long.requests - short.requests) == 4 * 4, "\(short) \(long)")
    }

    /// The client's own work per migration: only the migration's statements are prepared on the local
    /// copy of the schema (for what SQLite says of them). The `BEGIN IMMEDIATE`, the ledger lookup and
    /// the ledger row are the same text in every migration and their facts follow from it; before they
    /// were remembered, each migration prepared 6 statements locally. They are prepared while the
    /// ledger row and `COMMIT` of the migration before wait for their reply, so that this work is off the
    /// request path: every statement of every migration but the run's first is taken from there, and
    /// none is prepared twice.
    @Test func aMigrationPreparesOnlyItsOwnStatementsLocally() throws {
        let cluster = try DqliteCluster()
        let short = try cost(of: 4, database: "short_local", on: cluster)
        let long = try cost(of: 8, database: "long_local", on: cluster)
        #expect((long.localPrepares - short.localPrepares) == 4 * 3, "\(short) \(long)")
        #expect((long.takenAhead - short.takenAhead) == 4 * 3, "\(short) \(long)")
    }

    /// What was prepared ahead for a text that does not come next (another process applied that
    /// migration meanwhile, or the commit failed) is dropped, with the local copy that ran its schema
    /// statements ahead of the leader: the statement that comes instead prepares on an empty copy, with
    /// no copy from the leader. Keeping the copy, `CREATE TABLE b` fails to prepare on it (`b` exists
    /// there) and the copy is fetched again, a request more.
    @Test func whatWasPreparedAheadForATextThatDoesNotComeIsDropped() throws {
        let cluster = try DqliteCluster()
        let database = try RemoteDatabase(DqliteURL(cluster.url("ahead_dropped")), busyTimeout: 30_000)
        let connection = try RemoteConnection(database)
        try connection.execute("CREATE TABLE a (x)")
        try connection.execute("BEGIN IMMEDIATE")
        let schemaRuns = connection.localSchemaRunCount
        connection.willRunNext("CREATE TABLE b (y);\nINSERT INTO b VALUES (1);\n")
        try connection.executeAndCommit("INSERT INTO a VALUES (?)", [1])
        #expect(connection.localSchemaRunCount == schemaRuns + 1)
        let requests = database.connection.requestCount
        try connection.execute("CREATE TABLE b (z, w)")
        #expect(database.connection.requestCount - requests == 1)
        try connection.execute("INSERT INTO b (z, w) VALUES (2, 3)")
        #expect(try connection.query("SELECT z, w FROM b").map { [$0[0], $0[1]] } == [[.integer(2), .integer(3)]])
        #expect(try connection.query("SELECT x FROM a").map { $0[0] } == [.integer(1)])
        #expect(connection.takenAheadCount == 0)
    }

    /// The benchmark's migrations run their `CREATE TABLE` on the local copy of the schema and not their
    /// `CREATE INDEX`, which no later statement needs (before, both ran: 2 per migration), once each
    /// (a `CREATE TABLE` prepared ahead would count twice if it ran again once the leader ran it).
    @Test func anIndexNoStatementNeedsDoesNotRunOnTheLocalCopy() throws {
        let cluster = try DqliteCluster()
        let short = try cost(of: 4, database: "short_index", on: cluster)
        let long = try cost(of: 8, database: "long_index", on: cluster)
        #expect((long.localSchemaRuns - short.localSchemaRuns) == 4 * 1, "\(short) \(long)")
    }

    /// The checks a `migrate` run makes before its first migration (`verify`, `pending`, then
    /// `migrate`'s own) share one read of the ledgers' rows of `sqlite_schema`: `verify` and `pending`
    /// cost the leader no request more than `migrate` alone (before, each took two: the ledger's shape
    /// and other tools' ledgers), and the run still applies every migration.
    @Test func theChecksBeforeTheFirstMigrationShareOneRead() throws {
        let cluster = try DqliteCluster()
        func requests(_ name: String, checking: Bool) throws -> Int {
            let database = try RemoteDatabase(DqliteURL(cluster.url(name)), busyTimeout: 30_000)
            let connection = try RemoteConnection(database)
            let migrator = Migrator(connection: connection, migrations: try Self.migrations(2))
            migrator.observer = { connection.observe($0) }
            let before = database.connection.requestCount
            try migrator.sharingLedgerReads {
                if checking {
                    #expect(try migrator.verify().isEmpty)
                    #expect(try migrator.pending().count == 2)
                }
                try migrator.migrate()
            }
            let requests = database.connection.requestCount - before
            #expect(try migrator.currentVersion() == 2)
            return requests
        }
        let alone = try requests("alone", checking: false)
        let checked = try requests("checked", checking: true)
        #expect(checked == alone, "\(alone) \(checked)")
    }

    /// Requests and round trips of a whole `migrate` of `count` migrations on a fresh database, as the
    /// command runs it: the checks before the first migration, the migrations, the version read after.
    private func freshRun(of count: Int, database name: String, on cluster: DqliteCluster) throws -> (
        requests: Int, roundTrips: Int
    ) {
        let database = try RemoteDatabase(DqliteURL(cluster.url(name)), busyTimeout: 30_000)
        let connection = try RemoteConnection(database)
        let migrator = Migrator(connection: connection, migrations: try Self.migrations(count))
        migrator.observer = { connection.observe($0) }
        let before = (database.connection.requestCount, database.connection.roundTripCount)
        try migrator.sharingLedgerReads {
            #expect(try migrator.pending().count == count)
            try migrator.migrate()
        }
        #expect(try migrator.currentVersion() == Int64(count))
        return (database.connection.requestCount - before.0, database.connection.roundTripCount - before.1)
    }

    /// What a whole run costs besides its migrations' 4 requests (3 round trips) each: the shell's script
    /// takes 3 round trips besides its migrations (`BEGIN`, the ledger's `CREATE TABLE`, `COMMIT`). Before
    /// `PRAGMA foreign_keys = OFF` went with the first `BEGIN IMMEDIATE` and `= ON` with the read after
    /// the last migration, a fresh run of N migrations took 4N + 9 requests in 3N + 10 round trips; now
    /// 4N + 8 in 3N + 8. The ledger's shape inside the first transaction, its `CREATE TABLE` and the
    /// read of its row after it, `PRAGMA foreign_keys` before and the ledger's shape and version after
    /// are left.
    @Test func aFreshRunCostsAFixedNumberOfRequestsBesidesItsMigrations() throws {
        let cluster = try DqliteCluster()
        for count in [2, 6] {
            let run = try freshRun(of: count, database: "fresh_\(count)", on: cluster)
            #expect(run.requests - 4 * count <= 8, "\(count) migrations: \(run)")
            #expect(run.roundTrips - 3 * count <= 8, "\(count) migrations: \(run)")
        }
    }

    /// Requests and local schema runs of the second migration, `second`, after a first one.
    private func costOfSecond(_ second: String, database name: String, on cluster: DqliteCluster) throws -> (
        requests: Int, localSchemaRuns: Int
    ) {
        let database = try RemoteDatabase(DqliteURL(cluster.url(name)), busyTimeout: 30_000)
        let connection = try RemoteConnection(database)
        let migrations = try MigrationSource.files([
            .init(name: "0001_first.sql", text: "CREATE TABLE z (x);\n"), .init(name: "0002_second.sql", text: second),
        ]).load()
        let migrator = Migrator(connection: connection, migrations: migrations)
        migrator.observer = { connection.observe($0) }
        try migrator.migrate(Migrator.Options(target: 1))
        let requests = database.connection.requestCount
        let localSchemaRuns = connection.localSchemaRunCount
        try migrator.migrate()
        #expect(try connection.query("SELECT count(*) FROM a")[0][0] == .integer(1))
        return (database.connection.requestCount - requests, connection.localSchemaRunCount - localSchemaRuns)
    }

    /// A statement that needs an index the local copy has not run yet (an upsert naming the unique
    /// index's column) finds it run there, without copying the schema from the leader (a request more
    /// than the same migration whose statement needs no index).
    @Test func aStatementThatNeedsAnIndexFindsItOnTheLocalCopy() throws {
        let cluster = try DqliteCluster()
        let table = "CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT);\nCREATE UNIQUE INDEX a_name ON a (name);\n"
        let needing = try costOfSecond(
            table + "INSERT INTO a (name) VALUES ('x') ON CONFLICT (name) DO NOTHING;\n"
                + "INSERT INTO a (name) VALUES ('x') ON CONFLICT (name) DO NOTHING;\n",
            database: "needing", on: cluster)
        let plain = try costOfSecond(
            table + "INSERT OR IGNORE INTO a (name) VALUES ('x');\nINSERT OR IGNORE INTO a (name) VALUES ('x');\n",
            database: "plain", on: cluster)
        #expect(needing.requests == plain.requests, "\(needing) \(plain)")
        #expect(needing.localSchemaRuns == 2, "\(needing)")
        #expect(plain.localSchemaRuns == 1, "\(plain)")
    }
}
