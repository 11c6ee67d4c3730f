/// SQLite's language features by the release that added them, from SQLite's release history
/// (<https://sqlite.org/changes.html>): what a statement can show that an older SQLite refuses.
enum SQLiteFeatures {
    /// One feature a statement uses, where it shows.
    struct Use {
        let feature: String
        let version: SQLiteVersion
        /// Byte offset in the file.
        let offset: Int
    }

    /// Functions by the release that added them to SQLite's built-ins.
    static let functions: [String: (String, SQLiteVersion)] = {
        var table: [String: (String, SQLiteVersion)] = [
            "instr": ("instr()", SQLiteVersion(3, 7, 15)), "unicode": ("unicode()", SQLiteVersion(3, 7, 16)),
            "char": ("char()", SQLiteVersion(3, 7, 16)), "likelihood": ("likelihood()", SQLiteVersion(3, 8, 0)),
            "likely": ("likely()", SQLiteVersion(3, 8, 1)), "unlikely": ("unlikely()", SQLiteVersion(3, 8, 1)),
            "printf": ("printf()", SQLiteVersion(3, 8, 3)), "iif": ("iif()", SQLiteVersion(3, 32, 0)),
            "unixepoch": ("unixepoch()", SQLiteVersion(3, 38, 0)), "format": ("format()", SQLiteVersion(3, 38, 0)),
            "unhex": ("unhex()", SQLiteVersion(3, 41, 0)),
            "json_error_position": ("json_error_position()", SQLiteVersion(3, 42, 0)),
            "octet_length": ("octet_length()", SQLiteVersion(3, 43, 0)), "timediff": ("timediff()", SQLiteVersion(3, 43, 0)),
            "concat": ("concat()", SQLiteVersion(3, 44, 0)), "concat_ws": ("concat_ws()", SQLiteVersion(3, 44, 0)),
            "string_agg": ("string_agg()", SQLiteVersion(3, 44, 0)), "json_pretty": ("json_pretty()", SQLiteVersion(3, 46, 0)),
            "if": ("if()", SQLiteVersion(3, 48, 0)), "unistr": ("unistr()", SQLiteVersion(3, 50, 0)),
        ]
        for name in [
            "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value",
            "last_value", "nth_value",
        ] {
            table[name] = ("the window function \(name)()", SQLiteVersion(3, 25, 0))
        }
        for name in [
            "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos", "cosh", "degrees", "exp",
            "floor", "ln", "log", "log2", "log10", "mod", "pi", "pow", "power", "radians", "sin", "sinh", "sqrt", "tan", "tanh",
            "trunc",
        ] {
            table[name] = ("the math function \(name)()", SQLiteVersion(3, 35, 0))
        }
        for name in [
            "json", "json_array", "json_array_length", "json_extract", "json_insert", "json_object", "json_patch", "json_remove",
            "json_replace", "json_set", "json_type", "json_valid", "json_quote", "json_group_array", "json_group_object",
        ] {
            table[name] = ("\(name)() (built in from 3.38.0; before, only with the json1 extension)", SQLiteVersion(3, 38, 0))
        }
        for name in [
            "jsonb", "jsonb_array", "jsonb_extract", "jsonb_insert", "jsonb_object", "jsonb_patch", "jsonb_remove",
            "jsonb_replace", "jsonb_set", "jsonb_group_array", "jsonb_group_object",
        ] {
            table[name] = ("\(name)()", SQLiteVersion(3, 45, 0))
        }
        return table
    }()

    /// Pragmas by the release that added them.
    static let pragmas: [String: SQLiteVersion] = [
        "optimize": SQLiteVersion(3, 18, 0), "table_xinfo": SQLiteVersion(3, 26, 0), "trusted_schema": SQLiteVersion(3, 31, 0),
        "hard_heap_limit": SQLiteVersion(3, 31, 0), "analysis_limit": SQLiteVersion(3, 32, 0),
        "table_list": SQLiteVersion(3, 37, 0),
    ]

    /// Features the statement's text shows: operators, keywords and clauses, each at its token.
    static func syntax(in tokens: StatementTokens) -> [Use] {
        var uses: [Use] = []
        func use(_ feature: String, _ version: SQLiteVersion, at index: Int) {
            uses.append(Use(feature: feature, version: version, offset: tokens.offset(index)))
        }
        let startsWithAlter = tokens.word(0) == "alter"
        var isInUpdate = false
        for index in 0..<tokens.count {
            let token = tokens.tokens[index]
            if token.kind == .semicolon { isInUpdate = false }
            if token.kind == .operator, ["->", "->>"].contains(tokens.text(index)) {
                use("the \(tokens.text(index)) operator", SQLiteVersion(3, 38, 0), at: index)
            }
            if token.kind == .integer, tokens.text(index).lowercased().hasPrefix("0x") {
                use("hexadecimal integer literals", SQLiteVersion(3, 8, 6), at: index)
            }
            guard let word = tokens.word(index) else { continue }
            let next = tokens.word(index + 1)
            switch word {
            case "returning": use("RETURNING", SQLiteVersion(3, 35, 0), at: index)
            case "do" where next == "nothing" || next == "update":
                use("upsert (ON CONFLICT … DO \(next!.uppercased()))", SQLiteVersion(3, 24, 0), at: index)
            case "nulls" where next == "first" || next == "last":
                use("NULLS \(next!.uppercased())", SQLiteVersion(3, 30, 0), at: index)
            case "filter" where tokens.isSymbol(index + 1, "("):
                use("FILTER on aggregate functions", SQLiteVersion(3, 30, 0), at: index)
            case "over"
            where tokens.isSymbol(index + 1, "(") || (index + 1 < tokens.count && tokens.tokens[index + 1].kind == .identifier):
                use("window functions (OVER)", SQLiteVersion(3, 25, 0), at: index)
            case "materialized" where tokens.word(index - 1) == "as" || tokens.word(index - 1) == "not":
                use("MATERIALIZED hints on common table expressions", SQLiteVersion(3, 35, 0), at: index)
            case "distinct"
            where tokens.word(index - 1) == "is" || (tokens.word(index - 1) == "not" && tokens.word(index - 2) == "is"):
                use("IS [NOT] DISTINCT FROM", SQLiteVersion(3, 39, 0), at: index)
            case "right" where next == "join" || next == "outer", "full" where next == "join" || next == "outer":
                use("\(word.uppercased()) JOIN", SQLiteVersion(3, 39, 0), at: index)
            case "rename" where startsWithAlter && next != "to":
                use("ALTER TABLE … RENAME COLUMN", SQLiteVersion(3, 25, 0), at: index)
            case "drop" where startsWithAlter && index > 0:
                use("ALTER TABLE … DROP COLUMN", SQLiteVersion(3, 35, 0), at: index)
            case "into" where tokens.word(0) == "vacuum":
                use("VACUUM INTO", SQLiteVersion(3, 27, 0), at: index)
            case "true" where !tokens.isSymbol(index + 1, "("), "false" where !tokens.isSymbol(index + 1, "("):
                use("the literals TRUE and FALSE", SQLiteVersion(3, 23, 0), at: index)
            case "with" where next == "recursive" || (index == 0 && next != nil):
                use("common table expressions (WITH)", SQLiteVersion(3, 8, 3), at: index)
            case "update":
                let ahead = (index + 1..<min(index + 7, tokens.count)).map { tokens.word($0) }
                if let set = ahead.firstIndex(of: "set"), !ahead[..<set].contains(where: { ["on", "of", "begin"].contains($0) }) {
                    isInUpdate = true
                }
            case "from" where isInUpdate && tokens.depths[index] == 0:
                use("UPDATE … FROM", SQLiteVersion(3, 33, 0), at: index)
            case "view" where tokens.word(0) == "create":
                var name = index + 1
                if tokens.word(name) == "if" { name += 3 }
                if tokens.isSymbol(name + 1, ".") { name += 2 }
                if tokens.isSymbol(name + 1, "(") { use("column names in CREATE VIEW", SQLiteVersion(3, 9, 0), at: name + 1) }
            default: break
            }
        }
        return uses
    }

    /// Where a call of `function` shows in the statement: the name followed by `(`.
    static func call(of function: String, in tokens: StatementTokens) -> Int? {
        tokens.tokens.indices.first { tokens.word($0) == function && tokens.isSymbol($0 + 1, "(") }.map(tokens.offset)
    }
}
