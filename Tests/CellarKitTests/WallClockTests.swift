import CellarKit
import Glibc
import Testing

/// The ledger's timestamps, written digit by digit, read as the C library's `strftime` writes the
/// same second.
@Suite struct WallClockTests {
    /// What `strftime` writes for `format` at `secondsLater` seconds from now.
    private func strftimeText(_ format: String, secondsLater: Int) -> String {
        var seconds = time(nil) + secondsLater
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Reads `ours` between two readings of `strftime` until both fall in the same second.
    private func sameSecond(_ ours: () -> String, _ format: String, secondsLater: Int = 0) -> (String, String) {
        while true {
            let before = strftimeText(format, secondsLater: secondsLater)
            let text = ours()
            if strftimeText(format, secondsLater: secondsLater) == before { return (text, before) }
        }
    }

    @Test func utcTimestampIsISO8601AsStrftimeWritesIt() {
        let (ours, theirs) = sameSecond(WallClock.utcTimestamp, "%Y-%m-%dT%H:%M:%SZ")
        #expect(ours == theirs)
        #expect(ours.utf8.count == 20)
    }

    @Test(arguments: [0, 59, 3_600 * 13 + 7, 86_400 * 400, 86_400 * 365 * 30])
    func compactTimestampsAsStrftimeWritesThem(secondsLater: Int) {
        let (ours, theirs) = sameSecond(
            { WallClock.compactUTCTimestamp(secondsLater: secondsLater) }, "%Y%m%d%H%M%S", secondsLater: secondsLater)
        #expect(ours == theirs)
    }
}
