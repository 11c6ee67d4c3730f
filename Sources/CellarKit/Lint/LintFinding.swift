/// One thing `cellar lint` found, located in a migration file.
package struct LintFinding: Sendable, Equatable {
    /// The rule that found it.
    package let rule: LintRule
    /// The file, as the user named it.
    package let path: String
    /// Where in the file.
    package let location: SourceLocation
    /// The text of the line at ``location``.
    package let sourceLine: String?
    /// What is wrong, in one line.
    package let message: String

    /// The rule's severity.
    package var severity: LintSeverity { rule.severity }

    /// A finding at byte `offset` of `migration`'s file.
    init(_ rule: LintRule, in migration: Migration, at offset: Int, _ message: String) {
        let source = SourceText(migration.text)
        self.rule = rule
        self.path = migration.path
        self.location = source.location(of: offset)
        self.sourceLine = source.lineText(at: offset)
        self.message = message
    }

    /// `path:line:col: error[rule]: message`; SQLite's own errors without a rule, as `migrate` writes them.
    package var description: String {
        let label = rule == .sqlite ? "\(severity.rawValue)" : "\(severity.rawValue)[\(rule.rawValue)]"
        return "\(path):\(location.line):\(location.column): \(label): \(message)"
    }
}
