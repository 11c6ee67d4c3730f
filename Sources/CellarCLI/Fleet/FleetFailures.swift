import CellarKit

/// The failures of a fleet, summed up by kind: the first database that fails a way is reported in full
/// as it finishes; later ones that fail the same way (the same error text once their own path is taken
/// out) are only counted, and ``summaryLines`` says once how many failed with it
/// (`1,998 failed with: …`). A failure of a new kind is reported in full like the first.
///
/// Memory stays bounded: at most ``trackedKinds`` kinds are remembered; a failure of a kind beyond
/// them is reported in full every time.
struct FleetFailures {
    /// A kind of failure: its text, its count and the databases that had it first.
    private struct Kind {
        let summary: String
        var count: Int
        var examples: [String]
    }

    /// How many kinds are remembered.
    static let trackedKinds = 1_000
    /// How many databases each summary line names.
    static let namedExamples = 3

    private var kinds: [String: Int] = [:]
    private var ordered: [Kind] = []

    /// Counts `outcome` (a failure); returns whether it is the first of its kind, to be reported in full.
    mutating func add(_ outcome: FleetOutcome) -> Bool {
        let key = Self.key(of: outcome)
        if let index = kinds[key] {
            ordered[index].count += 1
            if ordered[index].examples.count < Self.namedExamples { ordered[index].examples.append(outcome.path) }
            return false
        }
        if ordered.count < Self.trackedKinds {
            kinds[key] = ordered.count
            ordered.append(
                Kind(summary: Self.withoutPath(outcome.errorSummary, outcome.path), count: 1, examples: [outcome.path]))
        }
        return true
    }

    /// One line for each kind more than one database had, in the order the kinds first appeared:
    /// `1,998 failed with: error: … (a.db, b.db, c.db and 1,995 others; --format json lists each)`.
    var summaryLines: [String] {
        ordered.filter { $0.count > 1 }.map { kind in
            let named = kind.examples.map(ControlCharacterEscaping.escape).joined(separator: ", ")
            let others = kind.count - kind.examples.count
            let list = others > 0 ? "\(named) and \(FleetSummary.grouped(others)) other\(others == 1 ? "" : "s")" : named
            return "\(FleetSummary.grouped(kind.count)) failed with: error: \(ControlCharacterEscaping.escape(kind.summary))"
                + " (\(list); --format json lists each)"
        }
    }

    /// The failure's text with the database's own path taken out, so that the same failure on two
    /// databases reads the same.
    private static func key(of outcome: FleetOutcome) -> String {
        withoutPath(outcome.errorText, outcome.path)
    }

    private static func withoutPath(_ text: String, _ path: String) -> String {
        path.isEmpty ? text : text.replacing(path, with: "<database>")
    }
}
