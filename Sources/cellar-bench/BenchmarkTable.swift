import BenchmarkReport

/// Prints results as a Markdown table, ready to paste into the manual's performance page.
enum BenchmarkTable {
    /// One row per benchmark from `rounds` (each round's results in the same order): over several rounds,
    /// every cell is the median of the rounds' medians, each ratio also gives its range, and the met cell
    /// says in how many rounds every target was met.
    static func render(rounds: [[BenchmarkResult]], runs: Int) -> String {
        var lines = [
            "| what | cellar | sqlite3 | time ratio (target) | cellar peak | sqlite3 peak | memory ratio (target) | met |",
            "|---|---:|---:|---:|---:|---:|---:|:-:|",
        ]
        for index in rounds.first?.indices ?? 0..<0 {
            lines.append(row(rounds.map { $0[index] }))
        }
        lines.append("")
        let runsText =
            "medians of \(runs) alternating runs each (cellar and sqlite3 take turns going first; more for --version)"
        if rounds.count > 1 {
            lines.append(
                "\(rounds.count) rounds, each taking the \(runsText). Cells: the median of the rounds' medians; "
                    + "in brackets after a ratio, its lowest and highest over the rounds; met: in every round, or in "
                    + "how many. Peak memory: one further run of each per round under GNU time (maximum resident set size).")
        } else {
            lines.append(
                "Times: \(runsText). Peak memory: one further run of each under GNU time (maximum resident set size).")
        }
        return lines.joined(separator: "\n")
    }

    /// One benchmark's row from its result in each round.
    private static func row(_ results: [BenchmarkResult]) -> String {
        let benchmark = results[0].benchmark
        var memoryTarget = benchmark.memoryTarget.map { "≤ \(format($0, digits: 2))×" }
        if let limit = benchmark.absoluteMemoryTarget { memoryTarget = "≤ \(limit / 1_048_576) MB" }
        let timeTarget = benchmark.timeTarget.map { "≤ \(format($0, digits: 2))×" }
        var timeCell = spread(results.compactMap(\.timeRatio)).map { ReportFormat.ratio($0, target: timeTarget) } ?? "–"
        if let limit = benchmark.absoluteTimeTarget { timeCell = "– (≤ \(seconds(limit)))" }
        var memoryCell = spread(results.compactMap(\.memoryRatio)).map { ReportFormat.ratio($0) } ?? "–"
        if let memoryTarget { memoryCell += " (\(memoryTarget))" }
        let sqlite = results.compactMap(\.sqlite)
        let cellarSeconds = RoundSpread.median(results.map(\.cellar.seconds))
        let cellarPeak = RoundSpread.median(results.map { Double($0.cellar.peakBytes) })
        let sqliteTime = sqlite.isEmpty ? "–" : seconds(RoundSpread.median(sqlite.map(\.seconds)))
        let sqlitePeak = sqlite.isEmpty ? "–" : megabytes(Int(RoundSpread.median(sqlite.map { Double($0.peakBytes) })))
        let cells: [String] = [
            benchmark.name, seconds(cellarSeconds), sqliteTime, timeCell, megabytes(Int(cellarPeak)), sqlitePeak,
            memoryCell, ReportFormat.met(results.map(\.meetsTargets)),
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    private static func spread(_ values: [Double]) -> RoundSpread? {
        values.isEmpty ? nil : RoundSpread(values)
    }

    static func seconds(_ value: Double) -> String {
        value < 0.001
            ? format(value * 1000, digits: 3) + " ms"
            : value < 1 ? format(value * 1000, digits: 1) + " ms" : format(value, digits: 2) + " s"
    }

    static func megabytes(_ bytes: Int) -> String {
        format(Double(bytes) / 1_048_576, digits: 1) + " MB"
    }

    /// `value` with `digits` decimals, without Foundation.
    static func format(_ value: Double, digits: Int) -> String {
        ReportFormat.decimal(value, digits: digits)
    }
}
