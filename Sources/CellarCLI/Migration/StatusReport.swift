import CellarKit

/// What `cellar status` prints, as text for people or as SPEC's JSON object for tools.
struct StatusReport {
    let databasePath: String
    let version: Int64
    let migrations: [MigrationStatus]
    let seeds: [Seeder.Status]

    /// One line per migration and per seed, under a heading naming the database and its version.
    func text() -> String {
        var lines = ["database \(databasePath) at version \(version)", "migrations:"]
        if migrations.isEmpty { lines.append("  (none)") }
        let width = migrations.map { $0.versionText.count + 1 + $0.name.count }.max() ?? 0
        for entry in migrations {
            let label = "\(entry.versionText) \(entry.name)"
            var line = "  \(pad(entry.state.rawValue, 8)) \(pad(label, width))"
            if let record = entry.record { line += "  \(record.appliedAt) (\(record.durationMilliseconds) ms)" }
            if entry.state == .changed { line += "  file changed since it was applied" }
            if entry.state == .missing { line += "  recorded, but no file" }
            if entry.state == .unfinished { line += "  started, not finished: running now, or stopped partway" }
            if entry.migration?.up.isTransactional == false { line += "  [transaction:false: not atomic]" }
            if let migration = entry.migration, migration.isUnwritten {
                line += "  [not written yet: write its up section before migrating]"
            } else if entry.migration?.isEmpty == true {
                line += "  [empty]"
            }
            lines.append(line)
        }
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
        let seedObjects = seeds.map { seed in
            object([
                ("name", string(seed.name)), ("state", string(seed.state.rawValue)), ("checksum", string(seed.checksum)),
                ("applied_at", seed.appliedAt.map(string) ?? "null"), ("duration_ms", "null"),
            ])
        }
        return object([
            ("database", string(databasePath)), ("version", String(version)),
            ("migrations", "[" + migrationObjects.joined(separator: ", ") + "]"),
            ("seeds", "[" + seedObjects.joined(separator: ", ") + "]"),
        ]) + "\n"
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
