import CellarKit

/// What `cellar status` prints, as text for people or as one JSON object for tools
/// (docs/command-line.md, `status --format json`).
struct StatusReport {
    let databasePath: String
    let version: Int64
    let migrations: [MigrationStatus]
    let seeds: [Seeder.Status]
    /// Files that cannot be used as migrations, listed with their error among the others.
    let problems: [MigrationFiles.Problem]
    /// False when the database file does not exist yet (a mistyped path reads as version 0).
    var databaseExists = true

    /// A report; a problem file's version replaces the `missing` entry its ledger row would make.
    init(
        databasePath: String, version: Int64, migrations: [MigrationStatus], seeds: [Seeder.Status],
        problems: [MigrationFiles.Problem] = []
    ) {
        self.databasePath = databasePath
        self.version = version
        let troubled = Set(problems.compactMap(\.version))
        self.migrations = migrations.filter { $0.state != .missing || !troubled.contains($0.version) }
        self.seeds = seeds
        self.problems = problems
        self.records = Dictionary(
            migrations.compactMap { entry in entry.record.map { ($0.version, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    private let records: [Int64: AppliedMigration]

    /// One line per migration and per seed, under a heading naming the database and its version.
    func text() -> String {
        let heading =
            databaseExists ? "database \(databasePath) at version \(version)" : "database \(databasePath) does not exist yet"
        var lines = [heading, "migrations:"]
        if migrations.isEmpty && problems.isEmpty { lines.append("  (none)") }
        let width = (migrations.map { $0.versionText.count + 1 + $0.name.count } + problems.map(\.fileName.count)).max() ?? 0
        var rows: [(version: Int64, line: String)] = problems.map { problem in
            var line = "  \(pad("error", 8)) \(pad(problem.fileName, width))"
            if let record = problem.version.flatMap({ records[$0] }) {
                line += "  \(record.appliedAt) (\(record.durationMilliseconds) ms)"
            }
            return (problem.version ?? .max, line + "  [error: \(Self.message(of: problem))]")
        }
        for entry in migrations {
            let label = "\(entry.versionText) \(entry.name)"
            var line = "  \(pad(entry.state.rawValue, 8)) \(pad(label, width))"
            if let record = entry.record { line += "  \(record.appliedAt) (\(record.durationMilliseconds) ms)" }
            if entry.state == .changed { line += "  file changed since it was applied" }
            if entry.state == .missing { line += "  recorded, but no file" }
            if entry.state == .unfinished { line += "  started, not finished: running now, or stopped partway" }
            if entry.state == .squashed { line += "  no file: the checkpoint stands for it" }
            if entry.checkpointEntry != nil {
                line +=
                    version == 0
                    ? "  [no file: built by \(Checkpoint.fileName)]"
                    : "  [file gone: \(Checkpoint.fileName) only builds new databases]"
            }
            if entry.migration?.up.isTransactional == false { line += "  [transaction:false: not atomic]" }
            if let migration = entry.migration, migration.isUnwritten {
                line += "  [not written yet: write its up section before migrating]"
            } else if entry.migration?.isEmpty == true {
                line += "  [empty]"
            }
            rows.append((entry.version, line))
        }
        lines += rows.enumerated().sorted { ($0.element.version, $0.offset) < ($1.element.version, $1.offset) }.map(
            \.element.line)
        if !seeds.isEmpty {
            lines.append("seeds:")
            let seedWidth = seeds.map(\.name.count).max() ?? 0
            for seed in seeds {
                var line = "  \(pad(seed.state.rawValue, 8)) \(pad(seed.name, seedWidth))"
                if let appliedAt = seed.appliedAt { line += "  \(appliedAt)" }
                lines.append(line)
            }
        }
        return lines.map { line in String(line.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n") + "\n"
    }

    /// `{"database": PATH, "version": N, "migrations": [...], "seeds": [...]}` on one line.
    func json() -> String {
        let migrationObjects = migrations.map { entry in
            object([
                ("version", String(entry.version)), ("name", string(entry.name)), ("state", string(entry.state.rawValue)),
                ("checksum", string(entry.checksum)), ("applied_at", entry.record.map { string($0.appliedAt) } ?? "null"),
                ("duration_ms", entry.record.map { String($0.durationMilliseconds) } ?? "null"),
            ])
        }
        let problemObjects = problems.map { problem in
            let record = problem.version.flatMap { records[$0] }
            return object([
                ("version", problem.version.map(String.init) ?? "null"), ("name", string(problem.fileName)),
                ("state", string("error")), ("checksum", record.map { string($0.checksum) } ?? "null"),
                ("applied_at", record.map { string($0.appliedAt) } ?? "null"),
                ("duration_ms", record.map { String($0.durationMilliseconds) } ?? "null"),
                ("error", string(Self.message(of: problem))),
            ])
        }
        let seedObjects = seeds.map { seed in
            object([
                ("name", string(seed.name)), ("state", string(seed.state.rawValue)), ("checksum", string(seed.checksum)),
                ("applied_at", seed.appliedAt.map(string) ?? "null"), ("duration_ms", "null"),
            ])
        }
        return object([
            ("database", string(databasePath)), ("version", String(version)),
            ("migrations", "[" + (migrationObjects + problemObjects).joined(separator: ", ") + "]"),
            ("seeds", "[" + seedObjects.joined(separator: ", ") + "]"),
        ]) + "\n"
    }

    /// The problem's error in one line: `line:column: message` when it has a place in the file.
    static func message(of problem: MigrationFiles.Problem) -> String {
        guard let diagnostic = problem.error.diagnostic else { return problem.error.description }
        guard let location = diagnostic.location else { return diagnostic.message }
        return "\(location.line):\(location.column): \(diagnostic.message)"
    }

    private func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
    }

    /// A JSON string literal.
    private func string(_ text: String) -> String {
        JSONString.quoted(text)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
