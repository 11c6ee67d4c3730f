import BenchmarkReport
import CellarKit
import Glibc

/// `swift run -c release cellar-bench [--runs N] [--rounds N] [--busy N] [--huge] [--only ROW]…`: the performance
/// table (docs/internals/performance.md) for the static release `cellar`, measured against the sqlite3 CLI in the
/// same run. The `cellar` beside it is built with it; when that one is not static, cellar-bench first builds the
/// static one with `scripts/build-release --scratch-path .build/bench-static` (see `MeasuredBinary`). `--rounds` measures the rows that many times over one set of fixtures
/// and reports each ratio's median and range; `--busy` keeps that many CPUs busy while they are measured.
/// `--huge` adds the 1 GB script row and the 1 GB `blob put` and `blob get` rows (they write about 5 GB under
/// /tmp); `--only` measures just the rows it names (`run`, `csv`, `box`, `migrate`, `own-transactions`,
/// `own-statements`, `version`, `long-line`, `huge`, `blob-put`, `blob-get`, `fleet-migrate`, `fleet-status`,
/// `dump`, `completion`, …).
let options = BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))

let started = WallClock.utcTimestamp()
var template = Array("/tmp/cellar-bench-XXXXXX".utf8CString)
guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    print("cellar-bench: cannot create a scratch folder")
    exit(1)
}
let folder = String(cString: created)
let cellarPath: String
switch BenchmarkContext.measuredCellar(scratch: folder) {
case .success(let path): cellarPath = path
case .failure(let refusal):
    print("cellar-bench: \(refusal.message)")
    _ = system("rm -rf '\(folder)'")
    exit(1)
}
print("cellar-bench: measuring \(cellarPath)")
let context = BenchmarkContext(cellarPath: cellarPath, sqlitePath: "/usr/bin/sqlite3", folder: folder)
defer { _ = system("rm -rf '\(context.folder)'") }

do {
    let cellarVersion = MachineFacts.firstLine(of: cellarPath, ["--version"], scratch: context.folder)
    let revision = MachineFacts.sourceRevision(from: BenchmarkContext.executableFolder(), scratch: context.folder)
    print("cellar-bench: building fixtures in \(context.folder)…")
    let benchmarks = try BenchmarkCatalog.benchmarks(context, includeHugeScript: options.includeHugeScript, only: options.only)
    try BusyLoops.start(options.busyLoops)
    if options.busyLoops > 0 { print("cellar-bench: \(options.busyLoops) busy loop(s) spinning") }
    var rounds: [[BenchmarkResult]] = []
    var loads: [RunHeader.RoundLoad] = []
    for round in 1...options.rounds {
        let before = MachineFacts.loadAverage()
        if options.rounds > 1 { print("cellar-bench: round \(round) of \(options.rounds) (load average \(before))") }
        var results: [BenchmarkResult] = []
        for benchmark in benchmarks {
            print("cellar-bench: \(benchmark.name)…")
            let isStartUp = benchmark.name.contains("version")
            results.append(
                try benchmark.measure(
                    runs: isStartUp
                        ? max(options.runs * 4, 21) : benchmark.sqlite == nil && benchmark.inProcess == nil ? 1 : options.runs,
                    round: round - 1, scratch: context.folder))
        }
        rounds.append(results)
        loads.append(RunHeader.RoundLoad(before: before, after: MachineFacts.loadAverage()))
    }
    BusyLoops.stop()
    DqliteBenchmark.stop()
    let header = RunHeader(
        arguments: CommandLine.arguments, started: started, ended: WallClock.utcTimestamp(), cellarVersion: cellarVersion,
        sourceRevision: revision, cpuCount: MachineFacts.cpuCount(), busyLoops: options.busyLoops, loads: loads)
    print("")
    print(header.lines.joined(separator: "\n"))
    print("")
    print(BenchmarkTable.render(rounds: rounds, runs: options.runs))
} catch {
    BusyLoops.stop()
    DqliteBenchmark.stop()
    print("cellar-bench: \(error)")
    exit(1)
}
