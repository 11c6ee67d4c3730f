import CellarKit
import Glibc

/// `.import` of a 1M-row CSV file into the benchmark table's columns, cellar's shell against
/// sqlite3's, both reading the same commands from standard input into an empty table.
enum ImportBenchmark {
    static func make(_ context: BenchmarkContext) throws -> Benchmark {
        let csv = try csvFile(context)
        let commands = context.file("import-commands.txt")
        var writer = try FileWriter(path: commands)
        try writer.write("CREATE TABLE t(id INTEGER, price REAL, name TEXT, label BLOB, note);\n")
        try writer.write(".import --csv --skip 1 \(csv) t\n")
        try writer.close()
        let cellarDatabase = context.file("import-cellar.db")
        let sqliteDatabase = context.file("import-sqlite.db")
        var benchmark = Benchmark(
            name: "`.import` of a 1M-row CSV file (int, real, quoted text, hex, empty)", timeTarget: 1.0, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath, arguments: ["shell", "-d", cellarDatabase], inputPath: commands),
            sqlite: BenchmarkCommand(executable: context.sqlitePath, arguments: [sqliteDatabase], inputPath: commands),
            reset: {
                BenchmarkContext.remove(cellarDatabase)
                BenchmarkContext.remove(sqliteDatabase)
            })
        benchmark.warmsUp = true
        return benchmark
    }

    /// The rows of the query benchmark's table as CSV, with a header: the name quoted (it holds a
    /// space and a non-ASCII letter, so a CSV writer quotes it), the blob as hex, the NULL empty.
    private static func csvFile(_ context: BenchmarkContext) throws -> String {
        let path = context.file("import.csv")
        guard access(path, F_OK) != 0 else { return path }
        var writer = try FileWriter(path: path)
        try writer.write("id,price,name,label,note\r\n")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for row in 1...1_000_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let hex = String(state, radix: 16) + String(state >> 7 ^ state, radix: 16)
            try writer.write("\(row),\(Double(row % 10000) / 100),\"Château no. \(row)\",\(hex),\r\n")
        }
        try writer.close()
        return path
    }
}
