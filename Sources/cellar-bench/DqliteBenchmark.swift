import CellarKit
import Glibc

/// The performance table's dqlite rows: `cellar migrate` of 100 generated migrations on a fresh 3-node loopback cluster
/// against go-dqlite's `dqlite` shell sending the same statements (one input line per migration, which
/// the shell runs in its own BEGIN/COMMIT, with the version insert), and `cellar query --mode csv` of
/// 100,000 rows against the shell's `SELECT`.
enum DqliteBenchmark {
    /// The cluster the rows use; stopped when the benchmarks are done.
    nonisolated(unsafe) static var cluster: BenchmarkCluster?
    // cellar-bench is single-threaded: the one cluster is only touched from the main thread.

    /// Whether go-dqlite's demo server and shell are installed (the rows are left out otherwise).
    static var isAvailable: Bool {
        if BenchmarkCluster.isAvailable { return true }
        print("cellar-bench: dqlite rows skipped: dqlite-demo or dqlite not installed (apt-get install go-dqlite)")
        return false
    }

    /// The one cluster both rows use, created on first use.
    private static func sharedCluster(_ context: BenchmarkContext) -> BenchmarkCluster {
        if let cluster { return cluster }
        let created = BenchmarkCluster(folder: context.file("dqlite"), basePort: 29_100)
        mkdir(created.folder, 0o755)
        cluster = created
        return created
    }

    static func stop() {
        cluster?.stop()
        cluster = nil
    }

    static func migrate(_ context: BenchmarkContext) throws -> Benchmark {
        let cluster = sharedCluster(context)
        let migrations = context.file("dqlite-migrations")
        mkdir(migrations, 0o755)
        var script = try FileWriter(path: context.file("dqlite-migrate.sql"))
        try script.write(
            "CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, "
                + "applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'applied')\n")
        for index in 1...100 {
            let sql = """
                CREATE TABLE t_\(index) (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created TEXT);
                CREATE INDEX t_\(index)_by_name ON t_\(index) (name);
                INSERT INTO t_\(index) (name, created) VALUES ('a', '2026-11-29'), ('b', '2026-11-29'), ('c', NULL);

                """
            try FileContents.write(Array(sql.utf8), to: "\(migrations)/\(WallClock.pad(index, to: 4))_step_\(index).sql")
            let checksum = MigrationParser.checksum(of: Array(sql.utf8))
            let line = sql.split(separator: "\n").joined(separator: " ")
            try script.write(
                "\(line) INSERT INTO cellar_migrations VALUES (\(index), 'step_\(index)', '\(checksum)', "
                    + "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 0, 'applied')\n")
        }
        try script.close()
        return Benchmark(
            name: "`cellar migrate` of 100 migrations, fresh 3-node dqlite cluster (baseline: go-dqlite's `dqlite` shell)",
            timeTarget: 1.2, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath, arguments: ["migrate", "-q", "-d", cluster.url("bench"), "-m", migrations]),
            sqlite: BenchmarkCommand(
                executable: BenchmarkCluster.shellPath, arguments: ["-s", cluster.addresses.joined(separator: ","), "bench"],
                inputPath: context.file("dqlite-migrate.sql")),
            reset: { try cluster.restartFresh() })
    }

    static func query(_ context: BenchmarkContext) throws -> Benchmark {
        let cluster = sharedCluster(context)
        let fill = BenchmarkCommand(
            executable: context.cellarPath,
            arguments: [
                "query", "-d", cluster.url("rows"),
                "CREATE TABLE IF NOT EXISTS wine(id INTEGER PRIMARY KEY, name TEXT, rating REAL, note TEXT);"
                    + "DELETE FROM wine;"
                    + "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000) "
                    + "INSERT INTO wine SELECT i, 'Wine no. ' || i, (i % 50) / 10.0, 'notes ' || i FROM c",
            ])
        // The generation the rows were filled in: the migrate row starts the cluster afresh before each
        // of its runs, so in a later round (`--rounds`) the rows are gone and are filled again.
        var filledGeneration: Int?
        return Benchmark(
            name: "`cellar query --mode csv` of 100k rows from a 3-node dqlite cluster (baseline: `dqlite` shell SELECT)",
            timeTarget: nil, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath,
                arguments: ["query", "-d", cluster.url("rows"), "SELECT * FROM wine", "--mode", "csv"]),
            sqlite: BenchmarkCommand(
                executable: BenchmarkCluster.shellPath,
                arguments: ["-s", cluster.addresses.joined(separator: ","), "rows", "SELECT * FROM wine"]),
            reset: {
                guard filledGeneration != cluster.generation else { return }
                try cluster.restartFresh()
                try BenchmarkProcess.runChecked(fill)
                filledGeneration = cluster.generation
            })
    }
}
