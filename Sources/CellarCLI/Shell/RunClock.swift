import CellarKit
import Glibc

/// Measures one statement for `.timer on`: wall-clock, user and system time, printed as sqlite3 does.
struct RunClock {
    private let startReal: Double
    private let startUser: Double
    private let startSystem: Double

    /// Starts measuring now.
    init() {
        startReal = Self.realSeconds()
        (startUser, startSystem) = Self.processSeconds()
    }

    /// `Run Time: real 0.012 user 0.010000 sys 0.001000`.
    func summary() -> String {
        let (user, system) = Self.processSeconds()
        let real = Self.realSeconds() - startReal
        return "Run Time: real \(Self.format(real, digits: 3)) user \(Self.format(user - startUser, digits: 6))"
            + " sys \(Self.format(system - startSystem, digits: 6))"
    }

    private static func realSeconds() -> Double {
        WallClock.milliseconds() / 1000
    }

    private static func processSeconds() -> (Double, Double) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }
        return (seconds(usage.ru_utime), seconds(usage.ru_stime))
    }

    /// `value` with exactly `digits` decimals, without Foundation's formatters.
    static func format(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((max(value, 0) * scale).rounded())
        let whole = scaled / Int64(scale)
        return "\(whole)." + WallClock.pad(Int(scaled % Int64(scale)), to: digits)
    }
}
