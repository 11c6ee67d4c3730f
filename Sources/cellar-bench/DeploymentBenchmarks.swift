import CellarKit
import Glibc

/// The performance table's deployment rows: a fleet migrated `--jobs 2` against `xargs -P 2` running sqlite3 per file,
/// `status` of a 100,000-file fleet (peak memory), and `dump` of the 1M-row database against
/// `sqlite3 .dump`.
enum DeploymentBenchmarks {
    // MARK: - migrate --jobs 2

    /// 20 migrations into each of 2,000 (or `files`) fresh files. sqlite3 gets the same statements, each
    /// migration in its own BEGIN/COMMIT with its version insert, one `sqlite3 FILE .read migrations.sql`
    /// per file run by `xargs -P 2`. The fixtures' names carry `files`, so that two fleet sizes can be
    /// measured in one run.
    static func fleetMigrate(_ context: BenchmarkContext, files: Int = 2000, migrationCount: Int = 20) throws -> Benchmark {
        let prefix = files == 2000 ? "fleet" : "fleet\(files)"
        let migrations = context.file("\(prefix)-migrations")
        mkdir(migrations, 0o755)
        var script = try FileWriter(path: context.file("\(prefix)-migrations.sql"))
        try script.write(
            """
            CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,
              applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL, kind TEXT NOT NULL DEFAULT 'applied');

            """)
        for index in 1...migrationCount {
            let sql = """
                CREATE TABLE t_\(index) (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created TEXT);
                CREATE INDEX t_\(index)_by_name ON t_\(index) (name);
                INSERT INTO t_\(index) (name, created) VALUES ('a', '2026-11-29'), ('b', NULL);

                """
            try FileContents.write(Array(sql.utf8), to: "\(migrations)/\(WallClock.pad(index, to: 4))_step_\(index).sql")
            let checksum = MigrationParser.checksum(of: Array(sql.utf8))
            try script.write(
                "BEGIN;\n\(sql)INSERT INTO cellar_migrations VALUES (\(index), 'step_\(index)', '\(checksum)', "
                    + "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 0, 'applied');\nCOMMIT;\n")
        }
        try script.close()
        let cellarFolder = context.file("\(prefix)-cellar")
        let sqliteFolder = context.file("\(prefix)-sqlite")
        var cellarList = try FileWriter(path: context.file("\(prefix)-cellar.txt"))
        var sqliteList = try FileWriter(path: context.file("\(prefix)-sqlite.txt"))
        for index in 1...files {
            try cellarList.write("\(cellarFolder)/tenant\(index).db\n")
            try sqliteList.write("\(sqliteFolder)/tenant\(index).db\n")
        }
        try cellarList.close()
        try sqliteList.close()
        var benchmark = Benchmark(
            name:
                "`cellar migrate --jobs 2`: 20 migrations into each of \(files == 2000 ? "2,000" : String(files)) fresh files "
                + "(vs `xargs -P 2 sqlite3`)",
            timeTarget: 0.8, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath,
                arguments: [
                    "migrate", "-q", "--jobs", "2", "--databases-from", context.file("\(prefix)-cellar.txt"), "-m", migrations,
                ]),
            sqlite: BenchmarkCommand(
                executable: "/usr/bin/xargs",
                arguments: [
                    "-a", context.file("\(prefix)-sqlite.txt"), "-P", "2", "-I", "{}", context.sqlitePath, "{}",
                    ".read \(context.file("\(prefix)-migrations.sql"))",
                ]),
            reset: {
                _ = system("rm -rf '\(cellarFolder)' '\(sqliteFolder)'")
                mkdir(cellarFolder, 0o755)
                mkdir(sqliteFolder, 0o755)
                // Both sides sync at every commit: the deletion of the previous run's files is made durable
                // here, so that neither measured run pays for it with its first syncs.
                BenchmarkContext.settleWriteback()
            })
        benchmark.absoluteMemoryTarget = 64 << 20
        return benchmark
    }

    // MARK: - status of 100,000 files

    /// `status` of 100,000 small copies of one migrated database (512-byte pages, two migrations), listed
    /// with a `**` pattern; peak memory only.
    static func fleetStatus(_ context: BenchmarkContext, files: Int = 100_000) throws -> Benchmark {
        let migrations = context.file("status-migrations")
        mkdir(migrations, 0o755)
        try FileContents.write(Array("CREATE TABLE a (x);\n".utf8), to: migrations + "/0001_a.sql")
        try FileContents.write(Array("CREATE TABLE b (y);\n".utf8), to: migrations + "/0002_b.sql")
        let template = context.file("status-template.db")
        try Database(path: template).execute("PRAGMA page_size = 512; VACUUM;")
        try BenchmarkProcess.runChecked(
            BenchmarkCommand(executable: context.cellarPath, arguments: ["migrate", "-q", "-d", template, "-m", migrations]))
        let bytes = try FileContents.read(template)
        let root = context.file("status-fleet")
        mkdir(root, 0o755)
        for group in 0..<(files / 1000) {
            let folder = "\(root)/g\(group)"
            mkdir(folder, 0o755)
            for index in 0..<1000 { try FileContents.write(bytes, to: "\(folder)/tenant\(index).db") }
        }
        var benchmark = Benchmark(
            name: "`cellar status` of a 100,000-file fleet (peak memory)", timeTarget: nil, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath,
                arguments: ["status", "-q", "--jobs", "2", "-d", "\(root)/**/*.db", "-m", migrations]),
            sqlite: nil)
        benchmark.absoluteMemoryTarget = 64 << 20
        return benchmark
    }

    // MARK: - dump

    /// `cellar dump` of the 1M-row query database against `sqlite3 db .dump`, both into /dev/null.
    static func dump(_ context: BenchmarkContext) throws -> Benchmark {
        let database = try BenchmarkCatalog.queryDatabase(context)
        var benchmark = Benchmark(
            name: "`cellar dump` of the 1M-row database", timeTarget: 1.0, memoryTarget: nil,
            cellar: BenchmarkCommand(executable: context.cellarPath, arguments: ["dump", "-d", database]),
            sqlite: BenchmarkCommand(executable: context.sqlitePath, arguments: [database, ".dump"]))
        benchmark.absoluteMemoryTarget = 64 << 20
        return benchmark
    }
}
