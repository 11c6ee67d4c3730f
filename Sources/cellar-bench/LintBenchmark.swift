import CellarKit
import Glibc

/// The checks before a deploy: `cellar lint --all` of 1,000 migrations against `cellar migrate` of the
/// same files on a fresh database (in the sqlite3 column: the peer here is cellar's own migrate), and
/// `cellar test --all` of 100 migrations, each with a down section.
enum LintBenchmark {
    static func lint(_ context: BenchmarkContext) throws -> Benchmark {
        let migrations = try write(context, folder: "lint-migrations", count: 1000)
        let database = context.file("lint-migrate.db")
        return Benchmark(
            name: "`cellar lint --all` of 1,000 migrations (sqlite3 column: `cellar migrate` of the same files)",
            timeTarget: 1.5, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath,
                arguments: ["lint", "--all", "-q", "-d", context.file("lint-none.db"), "-m", migrations]),
            sqlite: BenchmarkCommand(
                executable: context.cellarPath, arguments: ["migrate", "-q", "-d", database, "-m", migrations]),
            reset: { BenchmarkContext.remove(database) })
    }

    static func test(_ context: BenchmarkContext) throws -> Benchmark {
        let migrations = try write(context, folder: "test-migrations", count: 100)
        return Benchmark(
            name: "`cellar test --all` of 100 migrations (up, down, up each)", timeTarget: nil, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath,
                arguments: ["test", "--all", "-q", "-d", context.file("test-none.db"), "-m", migrations]),
            sqlite: nil)
    }

    /// `count` migrations as the migrate row writes them, each with a down section dropping its table.
    private static func write(_ context: BenchmarkContext, folder: String, count: Int) throws -> String {
        let path = context.file(folder)
        mkdir(path, 0o755)
        for index in 1...count {
            let text = "-- migrate:up\n\(MigrateBenchmark.migration(index))-- migrate:down\nDROP TABLE t_\(index);\n"
            try FileContents.write(Array(text.utf8), to: "\(path)/\(WallClock.pad(index, to: 4))_step_\(index).sql")
        }
        return path
    }
}
