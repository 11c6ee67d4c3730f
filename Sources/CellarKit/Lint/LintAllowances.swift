/// The `-- cellar:allow RULE` comments of a migration file: one in the comments right before a
/// statement silences the rule for that statement; one before the first statement, for the whole file.
struct LintAllowances {
    private var fileWide: Set<String> = []
    /// Rules allowed per statement, by the statement's start offset.
    private var perStatement: [Int: Set<String>] = [:]

    /// Reads the comments of `bytes` (a whole file) around `statements` (byte ranges, in order).
    init(_ bytes: [UInt8], statements: [Range<Int>]) {
        guard let first = statements.first?.lowerBound else { return }
        var comments: [(offset: Int, rules: Set<String>)] = []
        for token in SQLLexer(bytes) where token.kind == .lineComment {
            if let rules = Self.rules(in: token.text(in: bytes)) { comments.append((token.range.lowerBound, rules)) }
        }
        var next = 0
        for comment in comments where comment.offset < first { fileWide.formUnion(comment.rules) }
        for (index, statement) in statements.enumerated() {
            let start = statement.lowerBound
            let previous = index == 0 ? -1 : statements[index - 1].upperBound - 1
            while next < comments.count, comments[next].offset < start {
                if comments[next].offset > previous { perStatement[start, default: []].formUnion(comments[next].rules) }
                next += 1
            }
        }
    }

    /// The rules a comment names after `cellar:allow`, or nil when it is no such comment.
    static func rules(in comment: String) -> Set<String>? {
        var text = comment.dropFirst(2).drop { $0 == " " || $0 == "\t" }
        guard text.hasPrefix("cellar:allow") else { return nil }
        text = text.dropFirst("cellar:allow".count)
        return Set(text.split { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\r" }.map { String($0).lowercased() })
    }

    /// Whether `rule` is silenced for the statement starting at `statementStart`.
    func allows(_ rule: LintRule, statementStart: Int?) -> Bool {
        if fileWide.contains(rule.rawValue) { return true }
        guard let statementStart else { return false }
        return perStatement[statementStart]?.contains(rule.rawValue) ?? false
    }
}
