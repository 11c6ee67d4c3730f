/// One migration replayed and checked by ``MigrationLinter``: its statements one by one, what each
/// would do, and what the schema looks like after each.
struct LintRun {
    /// One statement of the up section.
    struct Step {
        /// Byte range in the file.
        let range: Range<Int>
        let actions: StatementActions
        /// Whether it ran inside an explicit transaction (of a `transaction:false` migration), and which.
        let transactionGroup: Int
        var changedSchema = false
    }

    /// Why the replay stopped partway.
    struct Failure {
        let offset: Int
        let message: String
    }

    let migration: Migration
    let linter: MigrationLinter
    let bytes: [UInt8]
    /// The schema before the migration.
    let before: LintSchema
    private(set) var steps: [Step] = []
    private(set) var failure: Failure?
    private var raw: [(LintRule, Int, String)] = []

    /// Notes a finding of `rule` at byte `offset` of the file.
    mutating func addFinding(_ rule: LintRule, _ offset: Int, _ message: String) {
        raw.append((rule, offset, message))
    }

    // What the schema comparisons learnt, statement by statement.
    /// Objects dropped by name (`index:x`).
    private var droppedByName: Set<String> = []
    /// Indexes and triggers that disappeared without being named, where.
    private var vanishedAt: [String: Int] = [:]
    /// Tables of `before` that a rename moved, under their current names (lowercased); a table of
    /// `before` not named here and not in ``movedAway`` is where it was.
    private var origins: [String: String] = [:]
    /// Names (lowercased) whose table of `before` was renamed away or dropped.
    private var movedAway: Set<String> = []
    /// Whether anything disappeared (an object, a table's data, a column): only then can the checks
    /// after the last statement find something.
    private var hasLosses = false
    /// Tables of `before` (lowercased) whose data went away, and where.
    private var droppedOriginals: [String: Int] = [:]
    /// Columns that left a table that stayed (`wine.rating`, lowercased), where.
    private var columnsGoneAt: [String: Int] = [:]
    /// Whether foreign keys are on in the replay, and where they were turned on.
    private var foreignKeysOnAt: Int?
    /// The views of `before` that worked before the first statement dropping or altering a table.
    private var workingViews: [String]?
    private var lastTableGoneAt: Int?
    private var writesSequence = false
    private var transactionGroup = 0

    init(migration: Migration, linter: MigrationLinter) {
        self.migration = migration
        self.linter = linter
        self.bytes = Array(migration.text.utf8)
        self.before = linter.schema
    }

    private var replayDatabase: Database { linter.replay }
    private var checksFeatures: Bool { linter.options.minimumSQLite < SQLiteVersion.linked }

    // MARK: - Replaying

    /// Replays the up section and checks it.
    /// - Returns: whether the replay failed (SQLite refused a statement), so that later migrations
    ///   cannot be read against a known schema.
    mutating func replay() throws -> Bool {
        let database = replayDatabase
        try database.execute("PRAGMA foreign_keys = OFF")
        let isTransactional = migration.up.isTransactional
        if isTransactional { try database.execute("BEGIN") }
        let base = migration.up.startOffset
        try database.withStatements(in: migration.up.sql) { cursor in
            while failure == nil {
                linter.recorder.begin()
                let next: StatementCursor<Database>.Prepared?
                do {
                    next = try cursor.next()
                } catch let error as SQLiteError {
                    _ = linter.recorder.end()
                    failure = Failure(offset: base + (error.offset ?? cursor.nextStatementOffset), message: error.message)
                    break
                }
                let actions = linter.recorder.end()
                guard let prepared = next else { break }
                let range = (base + prepared.startOffset)..<(base + prepared.endOffset)
                if isTransactional, let operation = actions.transaction {
                    failure = Failure(
                        offset: range.lowerBound,
                        message: "\(operation) is not allowed here: cellar runs this migration in a transaction of its own "
                            + "and commits it (a migration that manages its own transactions needs "
                            + "'-- migrate:up transaction:false')")
                    break
                }
                let group = try database.isAutocommit ? -(steps.count + 1) : transactionGroup
                var step = Step(range: range, actions: actions, transactionGroup: group)
                try checkBeforeRunning(step)
                guard !actions.reachesOutside else {
                    steps.append(step)
                    continue
                }
                do {
                    try cursor.run(prepared)
                } catch let error as SQLiteError {
                    failure = Failure(offset: range.lowerBound, message: error.message)
                    break
                }
                if actions.transaction?.uppercased() == "BEGIN" { transactionGroup += 1 }
                step.changedSchema = try checkAfterRunning(step)
                steps.append(step)
            }
        }
        if failure != nil {
            database.rollbackIfNeeded()
            linter.schema = try LintSchema.read(database, previous: linter.schema)
            linter.schemaVersion = try linter.currentSchemaVersion()
            return true
        }
        if isTransactional {
            try database.execute("COMMIT")
        } else if try !database.isAutocommit {
            database.rollbackIfNeeded()
            failure = Failure(
                offset: steps.last?.range.lowerBound ?? base,
                message: "the migration left a transaction open (BEGIN without COMMIT)")
            return true
        }
        try checkAtEnd()
        return false
    }

    // MARK: - Each statement

    private mutating func checkBeforeRunning(_ step: Step) throws {
        let actions = step.actions
        let start = step.range.lowerBound
        if migration.up.isTransactional {
            for pragma in actions.pragmas where pragma.value != nil && Self.pragmasFixedInTransaction.contains(pragma.name) {
                raw.append(
                    (
                        .pragmaNoop, start,
                        "PRAGMA \(pragma.name) cannot change inside a transaction (SQLite silently ignores it there), and "
                            + "cellar runs this migration in one; cellar already turns foreign keys off around every "
                            + "migration (a migration that must set it needs '-- migrate:up transaction:false')"
                    ))
            }
        }
        if let onAt = foreignKeysOnAt {
            for table in actions.droppedTables + actions.deleteTargets {
                let children = try cascadingChildren(of: table)
                guard !children.isEmpty else { continue }
                let what = actions.isDrop ? "DROP TABLE \(table) deletes its rows first" : "this DELETE removes rows of \(table)"
                raw.append(
                    (
                        .foreignKeysOn, start,
                        "foreign keys are on (turned on at line \(SourceText(migration.text).location(of: onAt).line)), so "
                            + "\(what), and that deletes or changes rows of "
                            + children.joined(separator: ", ")
                    ))
            }
        }
        for table in actions.deleteTargets + actions.updateTargets where before[type: "table", name: table] != nil {
            let tokens = StatementTokens(bytes, from: step.range.lowerBound, to: step.range.upperBound)
            guard tokens.topLevel("where") == nil else { continue }
            let verb = actions.deleteTargets.isEmpty ? "UPDATE" : "DELETE"
            let effect = verb == "DELETE" ? "removes every row of" : "changes every row of"
            raw.append((.destructive, start, "\(verb) without WHERE \(effect) \(table)"))
        }
        if let counts = linter.options.rowCounts {
            for (index, table) in actions.createdIndexes where before[type: "table", name: table] != nil {
                if let rows = counts[table.lowercased()], rows > linter.options.bigTableRows {
                    raw.append(
                        (
                            .bigTable, start,
                            "building index \(index) reads all \(TableRowCounts.formatted(rows)) rows of \(table), holding the "
                                + "write lock until it is done"
                        ))
                }
            }
        }
        if (!actions.droppedTables.isEmpty || !actions.alteredTables.isEmpty) && workingViews == nil {
            workingViews = before.all("view").map(\.name).filter { (try? viewError($0)) ?? nil == nil }
        }
        if checksFeatures { try checkFeatures(step) }
    }

    /// - Returns: whether the statement changed the schema.
    private mutating func checkAfterRunning(_ step: Step) throws -> Bool {
        let actions = step.actions
        // A rename or a drop updates sqlite_sequence itself (renaming or deleting the table's row).
        if actions.writesSequence, actions.alteredTables.isEmpty, !actions.isDrop { writesSequence = true }
        if actions.pragmas.contains(where: { $0.name == "foreign_keys" && $0.value != nil }) {
            foreignKeysOnAt = try replayDatabase.scalar("PRAGMA foreign_keys") == .integer(1) ? step.range.lowerBound : nil
        }
        let version = try linter.currentSchemaVersion()
        guard version != linter.schemaVersion else { return false }
        linter.schemaVersion = version
        if actions.createsObject, !actions.changesSchemaOtherwise {
            // Only new rows: sqlite_schema gives them rowids above every existing one.
            let added = try linter.schema.readAdded(replayDatabase)
            if checksFeatures { try checkSchemaFeatures(added: added, at: step.range) }
            return true
        }
        let old = linter.schema
        let new = try LintSchema.read(replayDatabase, previous: old)
        linter.schema = new
        compare(old, new, at: step)
        if checksFeatures {
            let changed = new.objects.values.filter { old[type: $0.type, name: $0.name]?.sql != $0.sql }
            try checkSchemaFeatures(added: changed, at: step.range)
        }
        return true
    }

    /// Notes what disappeared between two schemas, across one statement.
    private mutating func compare(_ old: LintSchema, _ new: LintSchema, at step: Step) {
        let start = step.range.lowerBound
        let actions = step.actions
        // A DROP TABLE also asks to drop each trigger of the table: those are not dropped by name.
        let triggers = actions.isDrop ? [] : actions.droppedTriggers
        let named = Set(
            (actions.droppedIndexes.map { "index:\($0)" } + triggers.map { "trigger:\($0)" }
                + actions.droppedViews.map { "view:\($0)" } + actions.droppedTables.map { "table:\($0)" }).map { $0.lowercased() }
        )
        let appearedTables = new.all("table").filter { old[type: "table", name: $0.name] == nil }
        for object in old.objects.values where new[type: object.type, name: object.name] == nil {
            let key = LintSchema.key(object.type, object.name)
            if named.contains(key) { droppedByName.insert(key) }
            switch object.type {
            case "table":
                let name = object.name.lowercased()
                let origin = origin(of: name)
                origins[name] = nil
                movedAway.insert(name)
                if let renamed = appearedTables.first(where: { $0.rootPage == object.rootPage && object.rootPage != 0 }) {
                    if let origin { origins[renamed.name.lowercased()] = origin }
                } else {
                    lastTableGoneAt = start
                    hasLosses = true
                    if let origin { droppedOriginals[origin] = start }
                }
            case "index", "trigger":
                if !named.contains(key) {
                    vanishedAt[key] = start
                    hasLosses = true
                }
            default: break
            }
        }
        for table in new.all("table") {
            guard let previous = old[type: "table", name: table.name] else { continue }
            for column in previous.columns where !table.columns.contains(where: { $0.lowercased() == column.lowercased() }) {
                let key = "\(table.name.lowercased()).\(column.lowercased())"
                if columnsGoneAt[key] == nil { columnsGoneAt[key] = start }
                hasLosses = true
            }
        }
    }

    // MARK: - After the last statement

    /// The name (lowercased) a table now called `name` had before the migration, if it existed then.
    private func origin(of name: String) -> String? {
        if let origin = origins[name] { return origin }
        return !movedAway.contains(name) && before[type: "table", name: name] != nil ? name : nil
    }

    private mutating func checkAtEnd() throws {
        defer { checkAtomicity() }
        guard hasLosses || workingViews != nil else { return }
        let after = linter.schema
        let first = steps.first?.range.lowerBound ?? migration.up.startOffset
        for object in before.objects.values where object.type == "index" || object.type == "trigger" {
            let key = LintSchema.key(object.type, object.name)
            guard after[type: object.type, name: object.name] == nil, !droppedByName.contains(key),
                after[type: "table", name: object.table] != nil, !upSectionNames(object.name)
            else { continue }
            raw.append(
                (
                    .lostObject, vanishedAt[key] ?? first,
                    "\(object.type) \(object.name) of table \(object.table) is gone after this migration (this statement "
                        + "dropped it with its table) and the migration does not create it again"
                ))
        }
        for name in workingViews ?? [] where after[type: "view", name: name] != nil {
            guard let error = try viewError(name) else { continue }
            raw.append(
                (
                    .lostObject, lastTableGoneAt ?? first,
                    "view \(name) no longer works after this migration: \(error)"
                ))
        }
        for table in before.all("table") {
            let name = table.name.lowercased()
            let current =
                after[type: "table", name: table.name]
                ?? origins.first { $0.value == name }.flatMap { after[type: "table", name: $0.key] }
                ?? (movedAway.contains(name) ? nil : after[type: "table", name: table.name])
            guard let current else {
                raw.append((.destructive, droppedOriginals[name] ?? first, "table \(table.name) is dropped, with its rows"))
                continue
            }
            let isRebuilt = droppedOriginals[name] != nil
            let lost = table.columns.filter { column in !current.columns.contains { $0.lowercased() == column.lowercased() } }
            for column in lost {
                let place =
                    columnsGoneAt["\(current.name.lowercased()).\(column.lowercased())"] ?? droppedOriginals[name] ?? first
                let message =
                    isRebuilt
                    ? "table \(table.name) is rebuilt without its column \(column), whose values are lost"
                    : "column \(table.name).\(column) is dropped, with its values"
                raw.append((.destructive, place, message))
            }
            if isRebuilt, !writesSequence, isAutoincrement(table), isAutoincrement(current) {
                raw.append(
                    (
                        .lostObject, droppedOriginals[name]!,
                        "table \(table.name) is rebuilt without its sqlite_sequence row: AUTOINCREMENT forgets the highest id "
                            + "it gave, so the ids of deleted rows can be given again (copy the row's seq to the new table)"
                    ))
            }
            if let counts = linter.options.rowCounts, let rows = counts[name], rows > linter.options.bigTableRows,
                isRebuilt || !lost.isEmpty
            {
                raw.append(
                    (
                        .bigTable, droppedOriginals[name] ?? first,
                        "table \(table.name) is rewritten with all its \(TableRowCounts.formatted(rows)) rows, holding the write lock "
                            + "until it is done"
                    ))
            }
        }
    }

    private mutating func checkAtomicity() {
        guard !migration.up.isTransactional else { return }
        let changing = steps.filter { $0.changedSchema || $0.actions.changesData }
        guard let schemaStep = changing.first(where: { $0.changedSchema }),
            let dataStep = changing.first(where: { $0.actions.changesData && !$0.changedSchema }),
            Set(changing.map(\.transactionGroup)).count > 1
        else { return }
        let source = SourceText(migration.text)
        raw.append(
            (
                .notAtomic, changing[0].range.lowerBound,
                "runs with transaction:false and changes both the schema (line \(source.location(of: schemaStep.range.lowerBound).line)) "
                    + "and data (line \(source.location(of: dataStep.range.lowerBound).line)) outside one transaction: a failure "
                    + "between them leaves the database half-migrated (wrap them in BEGIN … COMMIT, or split the migration)"
            ))
    }

    // MARK: - Findings

    /// The findings, without those a `-- cellar:allow` comment silences, in file order.
    func findings() -> [LintFinding] {
        var all = raw
        if let failure { all.append((.sqlite, failure.offset, failure.message)) }
        let allowances = LintAllowances(
            bytes, statements: steps.map(\.range) + (failure.map { [$0.offset..<$0.offset + 1] } ?? []))
        let starts = steps.map(\.range.lowerBound)
        var findings: [LintFinding] = []
        var seen: Set<String> = []
        for (rule, offset, message) in all.sorted(by: { ($0.1, $0.0) < ($1.1, $1.0) }) {
            let statement = starts.last { $0 <= offset }
            if rule != .sqlite, allowances.allows(rule, statementStart: statement) { continue }
            guard seen.insert("\(rule.rawValue)\u{0}\(offset)\u{0}\(message)").inserted else { continue }
            findings.append(LintFinding(rule, in: migration, at: offset, message))
        }
        return findings
    }

    // MARK: - Asking the replay

    /// Pragmas whose setting SQLite ignores inside a transaction
    /// (<https://sqlite.org/pragma.html#pragma_foreign_keys>, <https://sqlite.org/pragma.html#pragma_journal_mode>).
    static let pragmasFixedInTransaction: Set<String> = ["foreign_keys", "journal_mode"]

    /// The tables whose foreign keys to `table` delete or change their rows when its rows go:
    /// `subtitles (ON DELETE CASCADE)`.
    private func cascadingChildren(of table: String) throws -> [String] {
        try replayDatabase.query(
            """
            SELECT DISTINCT m.name, f.on_delete FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS f
            WHERE m.type = 'table' AND f."table" = ? COLLATE NOCASE AND m.name <> ? COLLATE NOCASE
              AND f.on_delete IN ('CASCADE', 'SET NULL', 'SET DEFAULT')
            ORDER BY m.name
            """, [table, table]
        ).map { "\($0[0].ledgerText) (ON DELETE \($0[1].ledgerText))" }
    }

    /// The error preparing a read of view `name` gives, or nil when the view works.
    private func viewError(_ name: String) throws -> String? {
        do {
            _ = try replayDatabase.query("SELECT * FROM \(IdentifierQuoting.quote(name)) LIMIT 0")
            return nil
        } catch let error as SQLiteError {
            return error.message
        }
    }

    /// Whether the up section names `name` itself, as a word or in a string (Synapse queues the
    /// index it drops with its table for a background job to build again, by its name): the
    /// migration knows the object goes, so its loss is no oversight.
    private func upSectionNames(_ name: String) -> Bool {
        let start = migration.up.startOffset
        let end = start + migration.up.sql.utf8.count
        let lowered = name.lowercased()
        return SQLLexer(bytes, from: start).contains { token in
            guard token.range.lowerBound < end else { return false }
            let text = token.stringValue(in: bytes) ?? token.identifierName(in: bytes)
            return text?.lowercased() == lowered
        }
    }

    private func isAutoincrement(_ table: LintSchema.Object) -> Bool {
        let sql = Array(table.sql.utf8)
        return SQLLexer(sql).contains { $0.isWord("autoincrement", in: sql) }
    }
}
