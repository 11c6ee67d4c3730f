import Glibc

/// The `blob put` and `blob get` rows: a file of almost 1 GB (999,000,000 bytes: SQLite stores at
/// most 1,000,000,000 in one value, record header included) into a fresh row and back out, against
/// sqlite3's `readfile()` and `writefile()`.
enum BlobBenchmark {
    static let size = 999_000_000

    /// The input file both rows share, written on first use.
    static func input(_ context: BenchmarkContext) throws -> String {
        let input = context.file("blob.bin")
        if access(input, F_OK) != 0 { try writeInput(to: input) }
        return input
    }

    static func put(_ context: BenchmarkContext) throws -> Benchmark {
        let input = try input(context)
        let cellarDatabase = context.file("blob-put-cellar.db")
        let sqliteDatabase = context.file("blob-put-sqlite.db")
        var benchmark = Benchmark(
            name: "`cellar blob put` of a 1 GB file into a fresh row", timeTarget: 1.0, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath,
                arguments: ["blob", "put", "-q", "-d", cellarDatabase, "t", "b", "1", input, "--insert"]),
            sqlite: BenchmarkCommand(
                executable: context.sqlitePath,
                arguments: [sqliteDatabase, "INSERT INTO t(id, b) VALUES (1, readfile('\(input)'))"]),
            reset: {
                for database in [cellarDatabase, sqliteDatabase] {
                    BenchmarkContext.remove(database)
                    try createTable(in: database, context: context)
                }
                // cellar syncs its commit and sqlite3 its own: neither waits behind the other's gigabyte.
                BenchmarkContext.settleWriteback()
            })
        benchmark.absoluteMemoryTarget = 64 << 20
        return benchmark
    }

    static func get(_ context: BenchmarkContext) throws -> Benchmark {
        let input = try input(context)
        let database = context.file("blob-get.db")
        try createTable(in: database, context: context)
        try BenchmarkProcess.runChecked(
            BenchmarkCommand(
                executable: context.cellarPath,
                arguments: ["blob", "put", "-q", "-d", database, "t", "b", "1", input, "--insert"]))
        let cellarOutput = context.file("blob-get-cellar.bin")
        let sqliteOutput = context.file("blob-get-sqlite.bin")
        var benchmark = Benchmark(
            name: "`cellar blob get` of a 1 GB blob to a file", timeTarget: 1.0, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath, arguments: ["blob", "get", "-q", "-d", database, "t", "b", "1", cellarOutput]),
            sqlite: BenchmarkCommand(
                executable: context.sqlitePath,
                arguments: [database, "SELECT writefile('\(sqliteOutput)', b) FROM t WHERE id = 1"]),
            reset: {
                unlink(cellarOutput)
                unlink(sqliteOutput)
                // cellar syncs its file before renaming it, sqlite3's writefile() never does: without this,
                // cellar's sync would also wait for the gigabyte sqlite3 (or the row before) left dirty.
                BenchmarkContext.settleWriteback()
            })
        benchmark.absoluteMemoryTarget = 64 << 20
        return benchmark
    }

    private static func createTable(in database: String, context: BenchmarkContext) throws {
        try BenchmarkProcess.runChecked(
            BenchmarkCommand(
                executable: context.sqlitePath, arguments: [database, "CREATE TABLE t(id INTEGER PRIMARY KEY, b BLOB)"]))
    }

    /// `size` pseudo-random bytes (SplitMix64), a megabyte at a time.
    private static func writeInput(to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw BenchmarkProcess.Failure(description: "cannot create \(path)") }
        defer { close(descriptor) }
        var state: UInt64 = 0x5EED
        var chunk = [UInt64](repeating: 0, count: 1 << 17)
        var remaining = size
        while remaining > 0 {
            for index in chunk.indices {
                state &+= 0x9E37_79B9_7F4A_7C15
                var mixed = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
                mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
                chunk[index] = mixed ^ (mixed >> 31)
            }
            let length = min(remaining, chunk.count * 8)
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, length) }
            guard written == length else { throw BenchmarkProcess.Failure(description: "write failed: errno \(errno)") }
            remaining -= length
        }
    }
}
