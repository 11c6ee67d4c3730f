/// How cellar-bench writes its figures (without Foundation): fixed decimals, ratios with their range over
/// the rounds, and whether a target was met in every round.
package enum ReportFormat {
    /// `value` with `digits` decimals, rounded half away from zero: `decimal(0.825, digits: 2)` is `0.83`.
    package static func decimal(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        let padded = String(repeating: "0", count: max(digits - fraction.count, 0)) + fraction
        return sign + (digits == 0 ? "\(whole)" : "\(whole).\(padded)")
    }

    /// A ratio cell: the median with two decimals and `×`; over more than one round, the range in
    /// brackets (`0.83× (0.79–0.88×)`); then the target, if any (`(≤ 1.05×)`).
    package static func ratio(_ spread: RoundSpread, target: String? = nil) -> String {
        var cell = decimal(spread.median, digits: 2) + "×"
        if spread.values.count > 1 {
            cell += " (" + decimal(spread.lowest, digits: 2) + "–" + decimal(spread.highest, digits: 2) + "×)"
        }
        if let target { cell += " (\(target))" }
        return cell
    }

    /// The met cell over the rounds: `yes` when every round met the row's targets, `**no**` for a single
    /// round that did not, `**k of N**` when only k of N rounds did.
    package static func met(_ rounds: [Bool]) -> String {
        let count = rounds.filter { $0 }.count
        if count == rounds.count { return "yes" }
        return rounds.count == 1 ? "**no**" : "**\(count) of \(rounds.count)**"
    }
}
