import Glibc

/// cellar-bench's command line.
struct BenchOptions {
    static let usage = "usage: cellar-bench [--runs N] [--rounds N] [--busy N] [--huge] [--only ROW]…"

    /// Runs per row and round (alternating cellar and sqlite3).
    var runs = 5
    /// Times every selected row is measured over the same fixtures.
    var rounds = 1
    /// Busy loops spinning while the rows are measured.
    var busyLoops = 0
    var includeHugeScript = false
    var only: Set<String> = []

    /// The options in `arguments` (without the program name); prints the problem and exits 2 on a bad one.
    static func parse(_ arguments: [String]) -> BenchOptions {
        var options = BenchOptions()
        var remaining = arguments[...]
        func count(after option: String, in range: ClosedRange<Int>) -> Int {
            guard let text = remaining.popFirst(), let value = Int(text), range.contains(value) else {
                print("cellar-bench: \(option) takes a whole number from \(range.lowerBound) to \(range.upperBound)")
                exit(2)
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--runs":
                options.runs = count(after: argument, in: 1...1000)
            case "--rounds":
                options.rounds = count(after: argument, in: 1...100)
            case "--busy":
                options.busyLoops = count(after: argument, in: 0...BusyLoops.maximum)
            case "--huge":
                options.includeHugeScript = true
            case "--only":
                guard let name = remaining.popFirst(), BenchmarkCatalog.rows.contains(where: { $0.name == name }) else {
                    print("cellar-bench: --only takes one of \(BenchmarkCatalog.rows.map(\.name).joined(separator: ", "))")
                    exit(2)
                }
                options.only.insert(name)
            default:
                print(usage)
                exit(2)
            }
        }
        return options
    }
}
