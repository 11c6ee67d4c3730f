/// The counts of a fleet run and its closing line: `2,000 databases: 1,990 migrated, 8 already current,
/// 2 failed`.
struct FleetSummary {
    let command: String
    private(set) var total = 0
    private(set) var migrated = 0
    private(set) var current = 0
    private(set) var withWork = 0
    private(set) var verified = 0
    private(set) var failed = 0

    init(command: String) {
        self.command = command
    }

    mutating func add(_ outcome: FleetOutcome) {
        total += 1
        switch outcome.result {
        case .migrated: migrated += 1
        case .current: current += 1
        case .withWork: withWork += 1
        case .verified: verified += 1
        case .failed: failed += 1
        }
    }

    /// The summary line; says so when a signal or `--fail-fast` stopped the fleet early.
    func line(stoppedBy signal: ExitStatus?, failFast: Bool) -> String {
        var parts: [String]
        switch command {
        case "status": parts = ["\(Self.grouped(current)) up to date", "\(Self.grouped(withWork)) with work to do"]
        case "verify": parts = ["\(Self.grouped(verified)) verified"]
        default: parts = ["\(Self.grouped(migrated)) migrated", "\(Self.grouped(current)) already current"]
        }
        parts.append("\(Self.grouped(failed)) failed")
        var text = "\(Self.grouped(total)) database\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
        if let signal {
            text +=
                "; stopped by \(signal == .interrupted ? "SIGINT" : "SIGTERM"): the databases above are done, no other was started"
        } else if failFast {
            text += "; stopped at the first failure (--fail-fast): no other database was started"
        }
        return text
    }

    /// `1,990`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
