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

    /// `cellar diff` between two schema files of 500 tables (each with an index; every tenth a child of
    /// the one before, with a trigger), 50 of which change: 25 rebuilt (a column's type changes) and 25
    /// given a column with `ADD COLUMN`. The time covers reading both files, the plan and its proof; no
    /// peer does this, so there is no sqlite3 column and no target.
    static func diff(_ context: BenchmarkContext) throws -> Benchmark {
        let from = context.file("diff-from.sql")
        let to = context.file("diff-to.sql")
        try FileContents.write(Array(diffSchema(changed: false).utf8), to: from)
        try FileContents.write(Array(diffSchema(changed: true).utf8), to: to)
        return Benchmark(
            name: "`cellar diff` of a 500-table schema with 50 changed tables (plan and proof)", timeTarget: nil,
            memoryTarget: nil,
            cellar: BenchmarkCommand(executable: context.cellarPath, arguments: ["diff", "--from", from, "--to", to]),
            sqlite: nil)
    }

    /// The 500 tables; `changed`: tables 10, 20, … 500 changed, alternately rebuilt and altered.
    static func diffSchema(changed: Bool) -> String {
        var text = ""
        for index in 1...500 {
            let isChanged = changed && index % 10 == 0
            let rating = isChanged && index % 20 == 0 ? "REAL" : "INTEGER"
            let extra = isChanged && index % 20 != 0 ? ", note TEXT DEFAULT ''" : ""
            let parent =
                index % 10 == 1 && index > 1 ? ", parent_id INTEGER REFERENCES t_\(index - 1) (id) ON DELETE CASCADE" : ""
            text += "CREATE TABLE t_\(index) (id INTEGER PRIMARY KEY, name TEXT NOT NULL, rating \(rating)\(parent)\(extra));\n"
            text += "CREATE INDEX t_\(index)_by_name ON t_\(index) (name);\n"
            if !parent.isEmpty {
                text +=
                    "CREATE TRIGGER t_\(index)_touch AFTER UPDATE ON t_\(index) BEGIN "
                    + "UPDATE t_\(index - 1) SET name = name WHERE id = new.parent_id; END;\n"
            }
        }
        return text
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
