import BenchmarkReport
import Testing

/// The cells cellar-bench writes over several rounds: medians, ranges and "met in k of N".
struct ReportFormatTests {
    @Test(
        arguments: [
            ([0.9], 0.9), ([0.88, 0.79, 0.83], 0.83), ([1.0, 4.0, 2.0, 3.0], 2.5), ([5.0, 1.0], 3.0), ([], 0.0),
        ] as [([Double], Double)])
    func medianIsTheMiddleOrTheMeanOfTheTwoMiddleOnes(values: [Double], median: Double) {
        #expect(RoundSpread(values).median == median)
        #expect(RoundSpread.median(values) == median)
    }

    @Test func rangeIsTheLowestAndHighestWhateverTheOrder() {
        let spread = RoundSpread([0.83, 0.88, 0.79])
        #expect(spread.lowest == 0.79)
        #expect(spread.highest == 0.88)
        #expect(spread.values == [0.83, 0.88, 0.79])
    }

    @Test(
        arguments: [
            (0.825, 2, "0.83"), (0.8249, 2, "0.82"), (1.0, 2, "1.00"), (1.05, 0, "1"), (12.5, 1, "12.5"),
            (0.0049, 3, "0.005"), (0.999, 2, "1.00"), (-0.5, 2, "-0.50"), (-0.001, 2, "0.00"), (1234.5678, 3, "1234.568"),
        ] as [(Double, Int, String)])
    func decimalRoundsToItsDigits(value: Double, digits: Int, text: String) {
        #expect(ReportFormat.decimal(value, digits: digits) == text)
    }

    @Test func oneRoundGivesTheRatioAloneAsTheOneRoundTableDid() {
        #expect(ReportFormat.ratio(RoundSpread([0.834]), target: "≤ 1.05×") == "0.83× (≤ 1.05×)")
        #expect(ReportFormat.ratio(RoundSpread([1.48])) == "1.48×")
    }

    @Test func severalRoundsGiveTheMedianThenTheRangeThenTheTarget() {
        let spread = RoundSpread([0.88, 0.79, 0.83])
        #expect(ReportFormat.ratio(spread, target: "≤ 1.05×") == "0.83× (0.79–0.88×) (≤ 1.05×)")
        #expect(ReportFormat.ratio(spread) == "0.83× (0.79–0.88×)")
        #expect(ReportFormat.ratio(RoundSpread([0.7, 0.7])) == "0.70× (0.70–0.70×)")
    }

    @Test(
        arguments: [
            ([true], "yes"), ([false], "**no**"), ([true, true, true], "yes"), ([true, false, true], "**2 of 3**"),
            ([false, false, false], "**0 of 3**"), ([false, true], "**1 of 2**"),
        ] as [([Bool], String)])
    func metSaysInHowManyRounds(rounds: [Bool], cell: String) {
        #expect(ReportFormat.met(rounds) == cell)
    }
}
