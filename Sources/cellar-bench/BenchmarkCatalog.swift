import Glibc

/// The rows of the performance table (docs/internals/performance.md), each comparing cellar with sqlite3 (the migrate row lives in
/// `MigrateBenchmark.swift`).
enum BenchmarkCatalog {
    /// Every row by a short name (for `--only`), and how to build it with its fixtures.
    static let rows: [(name: String, make: @Sendable (BenchmarkContext) throws -> Benchmark)] = [
        ("run", { try runInsertScript($0) }), ("csv", { try queryDatabaseRows($0, mode: "csv") }),
        ("box", { try queryDatabaseRows($0, mode: "box") }), ("migrate", { try MigrateBenchmark.make($0) }),
        ("own-transactions", { try MigrateBenchmark.ownTransactions($0) }),
        ("own-statements", { try MigrateBenchmark.ownStatements($0) }),
        ("version", { version($0) }), ("long-line", { try runLongLineScript($0) }), ("huge", { try runHugeScript($0) }),
        ("blob-put", { try BlobBenchmark.put($0) }), ("blob-get", { try BlobBenchmark.get($0) }),
        ("fleet-migrate", { try DeploymentBenchmarks.fleetMigrate($0) }),
        ("fleet-small", { try DeploymentBenchmarks.fleetMigrate($0, files: 300) }),
        ("fleet-status", { try DeploymentBenchmarks.fleetStatus($0) }), ("dump", { try DeploymentBenchmarks.dump($0) }),
        ("import", { try ImportBenchmark.make($0) }),
        ("dqlite-migrate", { try DqliteBenchmark.migrate($0) }), ("dqlite-query", { try DqliteBenchmark.query($0) }),
        ("completion", { try CompletionBenchmark.make($0) }),
        ("lint", { try LintBenchmark.lint($0) }), ("test", { try LintBenchmark.test($0) }),
        ("checkpoint", { try CheckpointBenchmark.setup($0) }),
        ("diff", { try LintBenchmark.diff($0) }),
    ]

    /// The rows that write a gigabyte or more, measured only with `--huge` (or `--only`).
    static let hugeRows: Set<String> = ["huge", "blob-put", "blob-get"]

    /// The rows `only` names (every row but the ``hugeRows`` when it is empty; those too when
    /// `includeHugeScript`), with their fixtures built.
    static func benchmarks(_ context: BenchmarkContext, includeHugeScript: Bool, only: Set<String> = []) throws
        -> [Benchmark]
    {
        try rows.filter { row in
            let wanted = only.isEmpty ? !hugeRows.contains(row.name) || includeHugeScript : only.contains(row.name)
            return wanted && (!row.name.hasPrefix("dqlite") || DqliteBenchmark.isAvailable)
        }
        .map { try $0.make(context) }
    }

    // MARK: - run

    /// 500,000 `INSERT`s: cellar wraps the file in its own transaction; sqlite3 reads the same
    /// statements between `BEGIN` and `COMMIT`, so both commit once.
    static func runInsertScript(_ context: BenchmarkContext) throws -> Benchmark {
        let script = context.file("insert.sql")
        let wrapped = context.file("insert-tx.sql")
        var plain = try FileWriter(path: script)
        var transaction = try FileWriter(path: wrapped)
        try transaction.write("BEGIN;\n")
        let create = "CREATE TABLE wine(id INTEGER PRIMARY KEY, name TEXT NOT NULL, rating REAL, note TEXT);\n"
        try plain.write(create)
        try transaction.write(create)
        for index in 0..<500_000 {
            let line = "INSERT INTO wine VALUES(\(index), 'Wine no. \(index)', \(Double(index % 50) / 10), 'notes; \(index)');\n"
            try plain.write(line)
            try transaction.write(line)
        }
        try transaction.write("COMMIT;\n")
        try plain.close()
        try transaction.close()
        let cellarDatabase = context.file("run-cellar.db")
        let sqliteDatabase = context.file("run-sqlite.db")
        return Benchmark(
            name: "`cellar run` of a 500k-row INSERT script, one transaction", timeTarget: 1.05, memoryTarget: nil,
            cellar: BenchmarkCommand(executable: context.cellarPath, arguments: ["run", "-d", cellarDatabase, script]),
            sqlite: BenchmarkCommand(executable: context.sqlitePath, arguments: [sqliteDatabase], inputPath: wrapped),
            reset: {
                BenchmarkContext.remove(cellarDatabase)
                BenchmarkContext.remove(sqliteDatabase)
            })
    }

    /// A 200 MB line: one `INSERT` of a 100 MB blob written as `X'…'`, the way a dump writes a large
    /// blob. The runner must find the statement's end in time linear in its length, however many
    /// chunks it spans. Both programs commit it once.
    static func runLongLineScript(_ context: BenchmarkContext) throws -> Benchmark {
        let script = context.file("long-line.sql")
        var writer = try FileWriter(path: script)
        try writer.write("CREATE TABLE label(id INTEGER PRIMARY KEY, image BLOB); INSERT INTO label VALUES (1, X'")
        let piece = String(repeating: "0123456789abcdef", count: 1 << 12)
        for _ in 0..<(200_000_000 / piece.utf8.count) { try writer.write(piece) }
        try writer.write("');\n")
        try writer.close()
        let cellarDatabase = context.file("long-line-cellar.db")
        let sqliteDatabase = context.file("long-line-sqlite.db")
        return Benchmark(
            name: "`cellar run` of a 200 MB one-line script (one INSERT of a 100 MB X'…' blob)", timeTarget: nil,
            memoryTarget: nil,
            cellar: BenchmarkCommand(executable: context.cellarPath, arguments: ["run", "-d", cellarDatabase, script]),
            sqlite: BenchmarkCommand(executable: context.sqlitePath, arguments: [sqliteDatabase], inputPath: script),
            reset: {
                BenchmarkContext.remove(cellarDatabase)
                BenchmarkContext.remove(sqliteDatabase)
            })
    }

    /// A 1 GB script (8 KiB text per statement): cellar's peak memory must stay under 64 MB.
    static func runHugeScript(_ context: BenchmarkContext) throws -> Benchmark {
        let script = context.file("huge.sql")
        var writer = try FileWriter(path: script)
        try writer.write("CREATE TABLE blobs(id INTEGER PRIMARY KEY, body TEXT);\n")
        let body = String(repeating: "x", count: 8_000)
        for index in 0..<131_072 {
            try writer.write("INSERT INTO blobs VALUES(\(index), '\(body)'); DELETE FROM blobs;\n")
        }
        try writer.close()
        let database = context.file("huge.db")
        var benchmark = Benchmark(
            name: "`cellar run` of a 1 GB script (peak memory)", timeTarget: nil, memoryTarget: nil,
            cellar: BenchmarkCommand(executable: context.cellarPath, arguments: ["run", "-d", database, script]), sqlite: nil,
            reset: { BenchmarkContext.remove(database) })
        benchmark.absoluteMemoryTarget = 64 << 20
        return benchmark
    }

    // MARK: - query

    static func queryDatabase(_ context: BenchmarkContext) throws -> String {
        let database = context.file("query.db")
        guard access(database, F_OK) != 0 else { return database }
        try BenchmarkProcess.runChecked(
            BenchmarkCommand(
                executable: context.sqlitePath,
                arguments: [
                    database,
                    """
                    CREATE TABLE t(id INTEGER, price REAL, name TEXT, label BLOB, note);
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000)
                    INSERT INTO t SELECT x, (x % 10000) / 100.0, 'Château no. ' || x, randomblob(16), NULL FROM c;
                    """,
                ]))
        return database
    }

    /// 1M rows of an integer, a real, text, a 16-byte blob and NULL, written to /dev/null.
    static func queryDatabaseRows(_ context: BenchmarkContext, mode: String) throws -> Benchmark {
        let database = try queryDatabase(context)
        let sql = "SELECT * FROM t"
        var benchmark = Benchmark(
            name: "`cellar query --mode \(mode)` of 1M rows", timeTarget: 1.0, memoryTarget: mode == "box" ? 0.25 : nil,
            cellar: BenchmarkCommand(executable: context.cellarPath, arguments: ["query", "-d", database, "--mode", mode, sql]),
            sqlite: BenchmarkCommand(executable: context.sqlitePath, arguments: ["-\(mode)", database, sql]))
        benchmark.warmsUp = true
        return benchmark
    }

    // MARK: - start-up

    static func version(_ context: BenchmarkContext) -> Benchmark {
        Benchmark(
            name: "`cellar --version`", timeTarget: 1.5, memoryTarget: nil,
            cellar: BenchmarkCommand(executable: context.cellarPath, arguments: ["--version"]),
            sqlite: BenchmarkCommand(executable: context.sqlitePath, arguments: ["-version"]))
    }
}
