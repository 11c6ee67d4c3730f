import CellarCLI
import CellarKit
import Glibc

/// The performance table's completion row: Tab in the shell on a schema of 10,000 tables and 100,000 columns, measured
/// in-process on the call the shell makes for each Tab (``TabCompleter``: `PRAGMA schema_version`,
/// the cached schema, the candidates). The first Tab reads the schema; the target is for the Tabs after
/// it. sqlite3's shell has no comparable completion, so the target is absolute (≤ 20 ms).
enum CompletionBenchmark {
    static let tableCount = 10_000
    static let columnsPerTable = 10
    /// Tabs per run, cycling through ``lines``.
    static let tabsPerRun = 200

    /// Lines typed before Tab: columns of every table before `FROM`, table names after `FROM`, the
    /// columns of a named table, `alias.` columns, and a one-letter word that matches 100,000 columns.
    static let lines = [
        "SELECT col_123", "SELECT * FROM table_0999", "SELECT col_42_1 FROM table_00042 WHERE col_42_",
        "SELECT t.col_7 FROM table_07777 AS t", "SELECT c",
    ]

    static func make(_ context: BenchmarkContext) throws -> Benchmark {
        let path = context.file("completion.db")
        BenchmarkContext.remove(path)
        let database = try Database(path: path)
        try database.execute("BEGIN")
        for table in 0..<tableCount {
            let columns = (0..<columnsPerTable).map { "col_\(table)_\($0) TEXT" }.joined(separator: ", ")
            try database.execute("CREATE TABLE table_\(WallClock.pad(table, to: 5)) (\(columns))")
        }
        try database.execute("COMMIT")
        var benchmark = Benchmark(
            name: "Tab completion, 10,000 tables and 100,000 columns (median per Tab after the first, in-process)",
            timeTarget: nil, memoryTarget: nil, cellar: nil, sqlite: nil)
        benchmark.absoluteTimeTarget = 0.020
        benchmark.inProcess = { runs in try measure(path, runs: runs) }
        return benchmark
    }

    private static func measure(_ path: String, runs: Int) throws -> Benchmark.Summary {
        var firsts: [Double] = []
        var tabs: [[Double]] = Array(repeating: [], count: lines.count)
        for _ in 0..<runs {
            let database = try Database(path: path)
            let completer = TabCompleter()
            firsts.append(time { _ = completer.candidates(in: database, line: "SELECT ", cursor: 7) })
            for index in 0..<tabsPerRun {
                let line = lines[index % lines.count]
                let seconds = time { _ = completer.candidates(in: database, line: line, cursor: cursor(in: line)) }
                tabs[index % lines.count].append(seconds)
            }
            guard completer.schemaLoadCount == 1 else {
                throw BenchmarkProcess.Failure(description: "completion read the schema \(completer.schemaLoadCount) times")
            }
        }
        print("cellar-bench: completion: first Tab (reads the schema): \(milliseconds(median(firsts)))")
        for (line, times) in zip(lines, tabs) {
            print(
                "cellar-bench: completion: `\(line)<Tab>`: median \(milliseconds(median(times))), slowest \(milliseconds(times.max() ?? 0))"
            )
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Benchmark.Summary(seconds: median(Array(tabs.joined())), peakBytes: usage.ru_maxrss * 1024)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    private static func milliseconds(_ seconds: Double) -> String {
        BenchmarkTable.format(seconds * 1000, digits: 3) + " ms"
    }

    /// Where Tab is pressed: after the `alias.` word, else at the end of the line.
    private static func cursor(in line: String) -> Int {
        let alias = "SELECT t.col_7"
        return line.hasPrefix(alias) ? alias.utf8.count : line.utf8.count
    }

    private static func time(_ body: () -> Void) -> Double {
        var start = timespec()
        var end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    }
}
