/// One line of a migration file read as a section marker: dbmate's (`-- migrate:up`), goose's
/// (`-- +goose Up`) or sql-migrate's (`-- +migrate Up`).
///
/// Markers are read strictly: a comment line that looks like a marker but is none (`-- migrate: up`,
/// `-- migrate:Down`, `-- +goose down`) is an error, because a down section taken for a comment would run
/// as part of the up section. ``read(_:)`` decides which lines look like one.
package struct SectionMarker: Equatable {
    /// The tool whose markers a file uses; one file uses one tool's markers.
    package enum Dialect: Equatable {
        case dbmate, goose, sqlMigrate

        var name: String {
            switch self {
            case .dbmate: "dbmate"
            case .goose: "goose"
            case .sqlMigrate: "sql-migrate"
            }
        }

        /// The marker that starts the up or the down section, as this tool spells it.
        func spelling(isUp: Bool) -> String {
            switch self {
            case .dbmate: isUp ? "-- migrate:up" : "-- migrate:down"
            case .goose: isUp ? "-- +goose Up" : "-- +goose Down"
            case .sqlMigrate: isUp ? "-- +migrate Up" : "-- +migrate Down"
            }
        }
    }

    /// What the marker says.
    package enum Kind: Equatable {
        /// Starts the up (true) or the down (false) section.
        case section(isUp: Bool)
        /// goose's `-- +goose NO TRANSACTION`: both sections run outside a transaction.
        case noTransaction
        /// goose's and sql-migrate's `StatementBegin`/`StatementEnd`: cellar lets SQLite find where each
        /// statement ends, so these change nothing.
        case statementBoundary
    }

    /// What one line is.
    package enum Reading: Equatable {
        /// Not a marker and not like one.
        case none
        case marker(SectionMarker)
        /// Looks like a marker but is none: `message` says what to write instead.
        case nearMiss(message: String)
    }

    package let dialect: Dialect
    package let kind: Kind
    /// False after dbmate's `transaction:false` or sql-migrate's `notransaction`.
    package let isTransactional: Bool

    /// dbmate's markers as they are nearly always written, byte for byte: nothing before the dashes, one
    /// space between the words, nothing after them but a carriage return.
    private static let commonLines: [(bytes: [UInt8], marker: SectionMarker)] = [
        ("-- migrate:up", true, true), ("-- migrate:down", false, true),
        ("-- migrate:up transaction:false", true, false), ("-- migrate:down transaction:false", false, false),
    ].map { (Array($0.0.utf8), SectionMarker(dialect: .dbmate, kind: .section(isUp: $0.1), isTransactional: $0.2)) }

    /// The marker `line` (its bytes, without the line feed) is when it is one of dbmate's markers written
    /// as nearly every file writes them (what ``read(_:)`` would read from it, found without making the
    /// line's text); nil otherwise, for ``read(_:)`` to decide.
    package static func readCommon(_ line: ArraySlice<UInt8>) -> SectionMarker? {
        let line = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        guard line.count >= 13, line.first == UInt8(ascii: "-") else { return nil }
        return commonLines.first { $0.bytes.elementsEqual(line) }?.marker
    }

    /// Reads one line (without its line feed; a trailing carriage return is allowed).
    package static func read(_ line: Substring) -> Reading {
        var text = line
        while let last = text.last, last == "\r" || isBlank(last) { text.removeLast() }
        let trimmed = text.drop(while: isBlank)
        guard trimmed.hasPrefix("--") else { return .none }
        let exact = exactMarker(trimmed)
        if trimmed.startIndex != text.startIndex {
            if case .marker = exact { return nearMiss(trimmed, "a marker starts at the beginning of its line") }
            if case .nearMiss = exact { return exact }
        }
        if exact != .none { return exact }
        return lookalike(trimmed)
    }

    // MARK: - The markers cellar reads

    private static func exactMarker(_ line: Substring) -> Reading {
        let body = line.dropFirst(2)
        if body.hasPrefix(" +goose") || body.hasPrefix(" +migrate") {
            return toolAnnotation(line, isGoose: body.hasPrefix(" +goose"))
        }
        let words = body.split(whereSeparator: isBlank)
        guard let first = words.first, first == "migrate:up" || first == "migrate:down" else { return .none }
        var isTransactional = true
        for option in words.dropFirst() {
            switch option {
            case "transaction:false": isTransactional = false
            case "transaction:true": isTransactional = true
            default:
                return .nearMiss(
                    message: "unknown option '\(option)' after '-- \(first)' (cellar knows transaction:false)")
            }
        }
        return .marker(
            SectionMarker(dialect: .dbmate, kind: .section(isUp: first == "migrate:up"), isTransactional: isTransactional))
    }

    /// `-- +goose …` or `-- +migrate …`: the annotation words must be the tool's, in its case.
    private static func toolAnnotation(_ line: Substring, isGoose: Bool) -> Reading {
        let prefix = isGoose ? " +goose" : " +migrate"
        let rest = line.dropFirst(2 + prefix.count)
        guard let separator = rest.first, isBlank(separator) else { return lookalike(line) }
        let words = rest.split(whereSeparator: isBlank).map(String.init)
        let dialect: Dialect = isGoose ? .goose : .sqlMigrate
        let tool = isGoose ? "-- +goose" : "-- +migrate"
        func marker(_ kind: Kind, _ isTransactional: Bool = true) -> Reading {
            .marker(SectionMarker(dialect: dialect, kind: kind, isTransactional: isTransactional))
        }
        switch (isGoose, words) {
        case (_, ["Up"]): return marker(.section(isUp: true))
        case (_, ["Down"]): return marker(.section(isUp: false))
        case (_, ["StatementBegin"]), (_, ["StatementEnd"]): return marker(.statementBoundary)
        case (true, ["NO", "TRANSACTION"]): return marker(.noTransaction)
        case (false, ["Up", "notransaction"]): return marker(.section(isUp: true), false)
        case (false, ["Down", "notransaction"]): return marker(.section(isUp: false), false)
        case (true, _) where words.first?.lowercased() == "envsub":
            return nearMiss(line, "cellar does not substitute environment variables (goose's ENVSUB)")
        case (false, _) where ["Up", "Down"].contains(words.first ?? ""):
            return nearMiss(
                line, "unknown option '\(words.dropFirst().joined(separator: " "))' (sql-migrate knows notransaction)")
        default:
            let known =
                isGoose ? "Up, Down, NO TRANSACTION, StatementBegin or StatementEnd" : "Up, Down, StatementBegin or StatementEnd"
            let wanted = words.first.flatMap { direction(of: $0.lowercased(), allowingTypos: true) }.map {
                dialect.spelling(isUp: $0)
            }
            let advice = wanted.map { "write '\($0)'" } ?? "\(tool) is followed by \(known), spelt so"
            return nearMiss(line, advice)
        }
    }

    // MARK: - Lines that look like markers

    /// A comment that is no marker but looks like one: a near miss of dbmate's words (`migrate:Down`,
    /// `migrate: up`, `migration:down`, `migrate_up`, `migrat:down`), an annotation of another spelling
    /// (`+goose down`, `+Goose Up`, `+ goose Up`, `--+goose Up`, `+gose Up`, `+migrate up`), or a comment
    /// that is only a section's name (`-- down`, `-- Up:`).
    private static func lookalike(_ line: Substring) -> Reading {
        let body = line.dropFirst(2)
        let words = body.lowercased().split(whereSeparator: { isBlank($0) || ":_-.=+;".contains($0) }).map(String.init)
        guard let first = words.first else { return .none }
        let second = words.count > 1 ? direction(of: words[1], allowingTypos: true) : nil
        if body.drop(while: isBlank).hasPrefix("+") || (isNear(first, "goose") && second != nil) {
            guard isNear(first, "goose") || isNear(first, "migrate") || first.hasPrefix("migration") else { return .none }
            let dialect: Dialect = isNear(first, "goose") ? .goose : .sqlMigrate
            let advice =
                second.map { "write '\(dialect.spelling(isUp: $0))'" }
                ?? "\(dialect.name)'s markers are spelt '\(dialect.spelling(isUp: true))' and '\(dialect.spelling(isUp: false))'"
            return nearMiss(line, advice)
        }
        let pair = words.prefix(2).joined()
        let stems = ["migrate", "migration", "migrations"]
        let fused = stems.flatMap { stem in [(stem + "up", true), (stem + "down", false)] }.first { pair.hasPrefix($0.0) }
        let isMigrateWord = (stems.contains(first) || isNear(first, "migrate")) && second != nil
        let bare = direction(of: first, allowingTypos: false)
        let isBareDirection = bare != nil && (words.count == 1 || (words.count == 2 && words[1].hasPrefix("migration")))
        guard let isUp = fused?.1 ?? (isMigrateWord ? second : nil) ?? (isBareDirection ? bare : nil) else { return .none }
        return nearMiss(line, "write '\(Dialect.dbmate.spelling(isUp: isUp))'")
    }

    private static func nearMiss(_ line: Substring, _ advice: String) -> Reading {
        let shown = line.count > 60 ? line.prefix(57) + "..." : line
        return .nearMiss(message: "'\(shown)' looks like a section marker but is none: \(advice)")
    }

    /// True for `up`, false for `down` (or, with `allowingTypos`, a word one typo from it: `dwon`,
    /// `donw`), nil otherwise.
    private static func direction(of word: String, allowingTypos: Bool) -> Bool? {
        if word == "up" { return true }
        if word == "down" || (allowingTypos && word.count >= 3 && isNear(word, "down")) { return false }
        return nil
    }

    /// Whether `word` is `target` or one edit from it (a letter added, dropped, changed, or two
    /// neighbours swapped), compared without case.
    private static func isNear(_ word: String, _ target: String) -> Bool {
        let a = Array(word.lowercased())
        let b = Array(target)
        if a == b { return true }
        guard abs(a.count - b.count) <= 1 else { return false }
        var i = 0
        while i < a.count, i < b.count, a[i] == b[i] { i += 1 }
        if a.count == b.count {
            if a[(i + 1)...] == b[(i + 1)...] { return true }
            return i + 1 < a.count && a[i] == b[i + 1] && a[i + 1] == b[i] && a[(i + 2)...] == b[(i + 2)...]
        }
        return a.count < b.count ? a[i...] == b[(i + 1)...] : a[(i + 1)...] == b[i...]
    }

    private static func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }
}
