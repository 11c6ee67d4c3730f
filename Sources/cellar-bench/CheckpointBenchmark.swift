import CellarKit
import Glibc

/// Issue 21's checkpoint row: a fresh `cellar setup` from the checkpoint of a 1,000-migration history
/// (the files of the migrate row, squashed with `cellar squash --to 1000`) against `cellar setup`
/// replaying the 1,000 files themselves (in the sqlite3 column: the peer here is cellar's own replay).
enum CheckpointBenchmark {
    static func setup(_ context: BenchmarkContext, migrationCount: Int = 1000) throws -> Benchmark {
        let files = context.file("checkpoint-files")
        let squashed = context.file("checkpoint-squashed")
        let seeds = context.file("checkpoint-no-seeds")
        for folder in [files, squashed, seeds] { mkdir(folder, 0o755) }
        for index in 1...migrationCount {
            let sql = MigrateBenchmark.migration(index)
            try FileContents.write(Array(sql.utf8), to: "\(files)/\(WallClock.pad(index, to: 4))_step_\(index).sql")
        }
        try BenchmarkProcess.runChecked(
            BenchmarkCommand(
                executable: context.cellarPath, arguments: ["squash", "-q", "--to", String(migrationCount), "-m", files]))
        guard rename("\(files)/\(Checkpoint.fileName)", "\(squashed)/\(Checkpoint.fileName)") == 0 else {
            throw BenchmarkProcess.Failure(description: "cannot move the checkpoint out of \(files)")
        }
        let fromCheckpoint = context.file("checkpoint-setup.db")
        let fromFiles = context.file("checkpoint-files.db")
        return Benchmark(
            name: "`cellar setup` from a checkpoint of 1,000 migrations (sqlite3 column: `cellar setup` replaying the files)",
            timeTarget: nil, memoryTarget: nil,
            cellar: BenchmarkCommand(
                executable: context.cellarPath,
                arguments: ["setup", "-q", "-d", fromCheckpoint, "-m", squashed, "--seeds", seeds]),
            sqlite: BenchmarkCommand(
                executable: context.cellarPath, arguments: ["setup", "-q", "-d", fromFiles, "-m", files, "--seeds", seeds]),
            reset: {
                BenchmarkContext.remove(fromCheckpoint)
                BenchmarkContext.remove(fromFiles)
            })
    }
}
