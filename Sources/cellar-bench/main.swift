import Glibc

do {
    print(try migrateBenchmark(runs: 5).line)
} catch {
    print("cellar-bench: migrate benchmark failed: \(error)")
    exit(1)
}
