import CellarKit

/// Names each migration on standard output as it completes (`applied 0004_add_rating (12 ms)`, as
/// dbmate and goose do), shows a long one's elapsed time on standard error when it is a terminal, and
/// foreign-key warnings always.
final class MigrationProgress {
    private let io: IO
    private let isQuiet: Bool
    /// What a completed migration is said to be: `applied` or `rolled back`.
    private let verb: String
    private var isShowing = false

    init(io: IO, isQuiet: Bool, verb: String = "applied") {
        self.io = io
        self.isQuiet = isQuiet
        self.verb = verb
    }

    /// Handles one event of the migrator.
    func observe(_ event: MigrationEvent) {
        switch event {
        case .started:
            isShowing = false
        case .progress(let migration, let elapsed):
            guard io.isErrorTerminal, !isQuiet, elapsed >= 1000 else { return }
            isShowing = true
            try? io.error.write("\r\u{1B}[K\(escaped(migration.identifier)): \(Self.seconds(elapsed)) …")
        case .finished(let outcome):
            if isShowing { try? io.error.write("\r\u{1B}[K") }
            isShowing = false
            guard !isQuiet else { return }
            // A write error here shows again, and fails the command, when the summary is written.
            let duration = verb == "applied" ? " (\(Self.duration(outcome.durationMilliseconds)))" : ""
            try? io.printOutput("\(verb) \(escaped(outcome.migration.identifier))\(duration)")
        case .emptySection(let migration, let isDown):
            io.printError(
                "cellar: warning: \(escaped(migration.path)): the \(isDown ? "down" : "up") section holds no statement; "
                    + (isDown ? "rolling it back only deletes its ledger row" : "applied as a no-op"))
        case .foreignKeyWarning(let migration, let violations):
            let first = violations.first.map(String.init(describing:)) ?? ""
            io.printError(
                "cellar: warning: \(escaped(migration.path)): \(violations.count) foreign-key violation(s) were already there "
                    + "before it ran (\(escaped(first)))")
        }
    }

    private func escaped(_ text: String) -> String { ControlCharacterEscaping.escape(text) }

    private static func seconds(_ milliseconds: Double) -> String {
        let tenths = Int((milliseconds / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// `41 ms` below ten seconds, `12.3 s` above.
    static func duration(_ milliseconds: Double) -> String {
        milliseconds < 10_000 ? "\(Int(milliseconds.rounded())) ms" : seconds(milliseconds)
    }

    /// `1,204`.
    static func number(_ number: Int) -> String { TableRowCounts.formatted(number) }

    /// `1 migration`, `3 migrations`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
