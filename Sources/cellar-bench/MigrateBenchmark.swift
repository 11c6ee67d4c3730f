import CellarKit
import Glibc

/// The performance table's migrate row: `cellar migrate` of 1,000 migration files on a fresh database against the same
/// files piped to `sqlite3`, each wrapped in `BEGIN`/`COMMIT` with a version insert.
enum MigrateBenchmark {
    /// Writes the migration files and the equivalent sqlite3 script, and describes the row.
    static func make(_ context: BenchmarkContext, migrationCount: Int = 1000) throws -> Benchmark {
        let migrations = context.file("migrations")
        mkdir(migrations, 0o755)
        var script = try FileWriter(path: context.file("migrate.sql"))
        try script.write(
            """
            CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,
              applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL);

            """)
        for index in 1...migrationCount {
            let sql = migration(index)
            try FileContents.write(Array(sql.utf8), to: "\(migrations)/\(WallClock.pad(index, to: 4))_step_\(index).sql")
            let checksum = MigrationParser.checksum(of: Array(sql.utf8))
            try script.write(
                "BEGIN;\n\(sql)INSERT INTO cellar_migrations VALUES (\(index), 'step_\(index)', '\(checksum)', "
                    + "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 0);\nCOMMIT;\n")
        }
        try script.close()
        let cellarDatabase = context.file("migrate-cellar.db")
        let sqliteDatabase = context.file("migrate-sqlite.db")
        return Benchmark(
            name: "`cellar migrate` of 1,000 migration files, fresh database", timeTarget: 1.3, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath, arguments: ["migrate", "-q", "-d", cellarDatabase, "-m", migrations]),
            sqlite: BenchmarkCommand(
                executable: context.sqlitePath, arguments: [sqliteDatabase], inputPath: context.file("migrate.sql")),
            reset: {
                BenchmarkContext.remove(cellarDatabase)
                BenchmarkContext.remove(sqliteDatabase)
                // Every commit syncs: without this, the side going first would wait behind the writeback of
                // what came before it (the fixtures before round 1, the row before, the other side's run).
                BenchmarkContext.settleWriteback()
            })
    }

    /// Issue 26's row: a history of `transaction:false` files, each wrapping its statements in its own
    /// `BEGIN`/`COMMIT` (as real histories do), migrated by cellar against the same files piped into
    /// sqlite3 one after another. cellar writes each file's claim and ledger row inside its transaction.
    static func ownTransactions(_ context: BenchmarkContext, migrationCount: Int = 100) throws -> Benchmark {
        try transactionFalseHistory(
            context, prefix: "own", migrationCount: migrationCount,
            name: "`cellar migrate` of 100 transaction:false files, each its own BEGIN/COMMIT"
        ) { "BEGIN;\n\(migration($0))COMMIT;\n" }
    }

    /// The other shape of such a history: `transaction:false` files of statements on their own, each
    /// committing by itself in sqlite3. cellar writes each file's claim with its first statement and its
    /// ledger row with its last.
    static func ownStatements(_ context: BenchmarkContext, migrationCount: Int = 100) throws -> Benchmark {
        try transactionFalseHistory(
            context, prefix: "statements", migrationCount: migrationCount,
            name: "`cellar migrate` of 100 transaction:false files of statements on their own", body: migration)
    }

    private static func transactionFalseHistory(
        _ context: BenchmarkContext, prefix: String, migrationCount: Int, name: String, body: (Int) -> String
    ) throws -> Benchmark {
        let migrations = context.file("\(prefix)-migrations")
        mkdir(migrations, 0o755)
        var script = try FileWriter(path: context.file("\(prefix)-migrations.sql"))
        for index in 1...migrationCount {
            let sql = "-- migrate:up transaction:false\n\(body(index))"
            try FileContents.write(Array(sql.utf8), to: "\(migrations)/\(WallClock.pad(index, to: 4))_\(prefix)_\(index).sql")
            try script.write(sql)
        }
        try script.close()
        let cellarDatabase = context.file("\(prefix)-cellar.db")
        let sqliteDatabase = context.file("\(prefix)-sqlite.db")
        return Benchmark(
            name: name, timeTarget: 1.0,
            memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath, arguments: ["migrate", "-q", "-d", cellarDatabase, "-m", migrations]),
            sqlite: BenchmarkCommand(
                executable: context.sqlitePath, arguments: [sqliteDatabase], inputPath: context.file("\(prefix)-migrations.sql")),
            reset: {
                BenchmarkContext.remove(cellarDatabase)
                BenchmarkContext.remove(sqliteDatabase)
                // Every commit syncs: without this, the side going first would wait behind the writeback of
                // what came before it (the fixtures before round 1, the row before, the other side's run).
                BenchmarkContext.settleWriteback()
            })
    }

    /// What each generated migration does: a table, an index and a few rows, like a small real upgrade.
    static func migration(_ index: Int) -> String {
        """
        CREATE TABLE t_\(index) (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created TEXT);
        CREATE INDEX t_\(index)_by_name ON t_\(index) (name);
        INSERT INTO t_\(index) (name, created) VALUES ('a', '2026-11-29'), ('b', '2026-11-29'), ('c', NULL);

        """
    }
}
