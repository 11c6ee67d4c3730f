extension LintRun {
    /// `needs-sqlite` for what the statement shows before it runs: functions and pragmas (from the
    /// authorizer) and syntax (from the tokens).
    mutating func checkFeatures(_ step: Step) throws {
        let minimum = linter.options.minimumSQLite
        let tokens = StatementTokens(bytes, from: step.range.lowerBound, to: step.range.upperBound)
        var uses = SQLiteFeatures.syntax(in: tokens)
        for function in step.actions.functions.sorted() {
            guard let (feature, version) = SQLiteFeatures.functions[function] else { continue }
            let offset = SQLiteFeatures.call(of: function, in: tokens) ?? step.range.lowerBound
            uses.append(SQLiteFeatures.Use(feature: feature, version: version, offset: offset))
        }
        for pragma in step.actions.pragmas {
            guard let version = SQLiteFeatures.pragmas[pragma.name] else { continue }
            let offset = tokens.first(pragma.name).map(tokens.offset) ?? step.range.lowerBound
            uses.append(SQLiteFeatures.Use(feature: "PRAGMA \(pragma.name)", version: version, offset: offset))
        }
        for use in uses where use.version > minimum { note(use) }
    }

    /// `needs-sqlite` for what only the schema a statement left shows in `objects` (those it created
    /// or redefined): `STRICT` and `WITHOUT ROWID` tables, generated columns, partial indexes and
    /// indexes on expressions.
    mutating func checkSchemaFeatures(added objects: [LintSchema.Object], at range: Range<Int>) throws {
        let database = linter.replay
        for table in objects where table.type == "table" {
            let rows = try database.query(
                "SELECT wr, strict FROM pragma_table_list WHERE schema = 'main' AND name = ?", [table.name])
            if rows.first?[1] == .integer(1) { noteSchema("STRICT tables", SQLiteVersion(3, 37, 0), range, word: "strict") }
            if rows.first?[0] == .integer(1) {
                noteSchema("WITHOUT ROWID tables", SQLiteVersion(3, 8, 2), range, word: "without")
            }
            let generated = try database.scalar("SELECT count(*) FROM pragma_table_xinfo(?) WHERE hidden IN (2, 3)", [table.name])
            if case .integer(let count) = generated, count > 0 {
                noteSchema("generated columns", SQLiteVersion(3, 31, 0), range, word: "generated")
            }
        }
        for index in objects where index.type == "index" {
            let partial = try database.scalar(
                "SELECT partial FROM pragma_index_list(?) WHERE name = ? COLLATE NOCASE", [index.table, index.name])
            if partial == .integer(1) { noteSchema("partial indexes", SQLiteVersion(3, 8, 0), range, word: "where") }
            let expressions = try database.scalar("SELECT count(*) FROM pragma_index_xinfo(?) WHERE cid = -2", [index.name])
            if case .integer(let count) = expressions, count > 0 {
                noteSchema("indexes on expressions", SQLiteVersion(3, 9, 0), range, word: nil)
            }
        }
    }

    private mutating func noteSchema(_ feature: String, _ version: SQLiteVersion, _ range: Range<Int>, word: String?) {
        guard version > linter.options.minimumSQLite else { return }
        var offset = range.lowerBound
        if let word {
            let tokens = StatementTokens(bytes, from: range.lowerBound, to: range.upperBound)
            if let index = tokens.topLevel(word) ?? tokens.first(word) { offset = tokens.offset(index) }
        }
        note(SQLiteFeatures.Use(feature: feature, version: version, offset: offset))
    }

    private mutating func note(_ use: SQLiteFeatures.Use) {
        addFinding(
            .needsSQLite, use.offset,
            "\(use.feature) needs SQLite \(use.version) or later; the migrations must run on \(linter.options.minimumSQLite)")
    }
}
