import Glibc

/// `scripts/build-release && .build/release/cellar-bench [--runs N] [--huge] [--only ROW]…`: the
/// performance table (docs/internals/performance.md) for the static release `cellar` built beside it, measured against the sqlite3 CLI
/// in the same run. `--huge` adds the 1 GB script row and the 1 GB `blob put` and `blob get` rows (they
/// write about 5 GB under /tmp); `--only` measures just the rows it names (`run`, `csv`, `box`,
/// `migrate`, `own-transactions`, `own-statements`, `version`, `long-line`, `huge`, `blob-put`, `blob-get`, `fleet-migrate`, `fleet-status`,
/// `dump`, `completion`).
var runs = 5
var includeHugeScript = false
var only: Set<String> = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--runs":
        runs = arguments.popFirst().flatMap { Int($0) } ?? runs
    case "--huge":
        includeHugeScript = true
    case "--only":
        guard let name = arguments.popFirst(), BenchmarkCatalog.rows.contains(where: { $0.name == name }) else {
            print("cellar-bench: --only takes one of \(BenchmarkCatalog.rows.map(\.name).joined(separator: ", "))")
            exit(2)
        }
        only.insert(name)
    default:
        print("usage: cellar-bench [--runs N] [--huge] [--only ROW]…")
        exit(2)
    }
}

let cellarPath = BenchmarkContext.executableFolder() + "/cellar"
guard ExecutableLinkage.isStatic(cellarPath) == true else {
    print("cellar-bench: \(cellarPath) is not the static release build; run scripts/build-release first")
    exit(1)
}

var template = Array("/tmp/cellar-bench-XXXXXX".utf8CString)
guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    print("cellar-bench: cannot create a scratch folder")
    exit(1)
}
let context = BenchmarkContext(
    cellarPath: cellarPath, sqlitePath: "/usr/bin/sqlite3", folder: String(cString: created))
defer { _ = system("rm -rf '\(context.folder)'") }

do {
    print("cellar-bench: building fixtures in \(context.folder)…")
    let benchmarks = try BenchmarkCatalog.benchmarks(context, includeHugeScript: includeHugeScript, only: only)
    var results: [BenchmarkResult] = []
    for benchmark in benchmarks {
        print("cellar-bench: \(benchmark.name)…")
        let isStartUp = benchmark.name.contains("version")
        results.append(
            try benchmark.measure(
                runs: isStartUp ? max(runs * 4, 21) : benchmark.sqlite == nil && benchmark.inProcess == nil ? 1 : runs,
                scratch: context.folder))
    }
    DqliteBenchmark.stop()
    print("")
    print(BenchmarkTable.render(results, runs: runs))
} catch {
    DqliteBenchmark.stop()
    print("cellar-bench: \(error)")
    exit(1)
}
