/// One figure measured in several rounds: its median and its range, for a table cell that a re-run can
/// check.
package struct RoundSpread: Equatable, Sendable {
    /// The figure of each round, in the order measured.
    package let values: [Double]

    /// A spread over `values` (at least one).
    package init(_ values: [Double]) {
        self.values = values
    }

    /// The middle value, or the mean of the two middle ones for an even count (0 when there is none).
    package var median: Double { Self.median(values) }

    /// The smallest value (0 when there is none).
    package var lowest: Double { values.min() ?? 0 }

    /// The largest value (0 when there is none).
    package var highest: Double { values.max() ?? 0 }

    /// The median of `values`: the middle one once sorted, or the mean of the two middle ones.
    package static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
