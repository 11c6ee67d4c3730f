/// Prints results as a Markdown table, ready to paste into the README.
enum BenchmarkTable {
    static func render(_ results: [BenchmarkResult], runs: Int) -> String {
        var lines = [
            "| what | cellar | sqlite3 | time ratio (target) | cellar peak | sqlite3 peak | memory ratio (target) | met |",
            "|---|---:|---:|---:|---:|---:|---:|:-:|",
        ]
        for result in results {
            let benchmark = result.benchmark
            var memoryTarget = benchmark.memoryTarget.map { "≤ \(format($0, digits: 2))×" } ?? ""
            if let limit = benchmark.absoluteMemoryTarget { memoryTarget = "≤ \(limit / 1_048_576) MB" }
            var timeCell = "–"
            if let ratio = result.timeRatio {
                timeCell = format(ratio, digits: 2) + "×"
                if let target = benchmark.timeTarget { timeCell += " (≤ \(format(target, digits: 2))×)" }
            }
            if let limit = benchmark.absoluteTimeTarget { timeCell = "– (≤ \(seconds(limit)))" }
            var memoryCell = result.memoryRatio.map { format($0, digits: 2) + "×" } ?? "–"
            if !memoryTarget.isEmpty { memoryCell += " (\(memoryTarget))" }
            let sqliteTime: String = result.sqlite.map { seconds($0.seconds) } ?? "–"
            let sqlitePeak: String = result.sqlite.map { megabytes($0.peakBytes) } ?? "–"
            let cells: [String] = [
                benchmark.name, seconds(result.cellar.seconds), sqliteTime, timeCell, megabytes(result.cellar.peakBytes),
                sqlitePeak, memoryCell, result.meetsTargets ? "yes" : "**no**",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append(
            "Times: medians of \(runs) alternating runs each (cellar and sqlite3 take turns going first; more for "
                + "--version). Peak memory: one further run of each under GNU time (maximum resident set size).")
        return lines.joined(separator: "\n")
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
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(abs(scaled) % Int(scale))
        let padded = String(repeating: "0", count: max(digits - fraction.count, 0)) + fraction
        return digits == 0 ? "\(whole)" : "\(whole).\(padded)"
    }
}
