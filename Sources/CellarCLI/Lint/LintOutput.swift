import CellarKit

/// `cellar lint`'s report in its three formats: compiler-style text, JSON, and SARIF 2.1.0
/// (<https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html>), which code-review tools show inline.
struct LintOutput {
    let report: LintReport

    /// Each finding as `path:line:col: error[rule]: message`, its source line and a caret.
    func text(usesColor: Bool) -> String {
        let formatter = DiagnosticFormatter(usesColor: usesColor)
        return report.findings.map { finding in
            let label = finding.rule == .sqlite ? "error:" : "\(finding.severity.rawValue)[\(finding.rule.rawValue)]:"
            let diagnostic = Diagnostic(
                path: finding.path, location: finding.location, sourceLine: finding.sourceLine, message: finding.message)
            return formatter.format(diagnostic, label: label) + "\n"
        }.joined()
    }

    /// One line: `lint: 2 errors and 1 warning in 3 migrations`.
    var summary: String {
        let errors = report.findings.filter { $0.severity == .error }.count
        let warnings = report.findings.count - errors
        let checked = MigrationProgress.count(report.checked.count, "migration")
        guard !report.findings.isEmpty else { return "lint: no findings in \(checked)" }
        return
            "lint: \(MigrationProgress.count(errors, "error")) and \(MigrationProgress.count(warnings, "warning")) in \(checked)"
    }

    /// `{"findings": [...], "checked": [...], "errors": N, "warnings": N}`.
    func json() -> String {
        let findings = report.findings.map { finding in
            object([
                ("path", string(finding.path)), ("line", String(finding.location.line)),
                ("column", String(finding.location.column)), ("severity", string(finding.severity.rawValue)),
                ("rule", string(finding.rule.rawValue)), ("message", string(finding.message)),
            ])
        }
        let errors = report.findings.filter { $0.severity == .error }.count
        return object([
            ("findings", array(findings)), ("checked", array(report.checked.map { string($0.path) })),
            ("stopped_at", report.stoppedAt.map { string($0.path) } ?? "null"), ("errors", String(errors)),
            ("warnings", String(report.findings.count - errors)),
        ]) + "\n"
    }

    /// One SARIF run: cellar as the tool with every rule, and a result per finding.
    func sarif() -> String {
        let rules = LintRule.allCases.map { rule in
            object([
                ("id", string(rule.rawValue)), ("shortDescription", object([("text", string(rule.summary))])),
                ("defaultConfiguration", object([("level", string(rule.severity.rawValue))])),
            ])
        }
        let results = report.findings.map { finding in
            object([
                ("ruleId", string(finding.rule.rawValue)),
                ("ruleIndex", String(LintRule.allCases.firstIndex(of: finding.rule) ?? 0)),
                ("level", string(finding.severity.rawValue)), ("message", object([("text", string(finding.message))])),
                (
                    "locations",
                    array([
                        object([
                            (
                                "physicalLocation",
                                object([
                                    ("artifactLocation", object([("uri", string(Self.uri(finding.path)))])),
                                    (
                                        "region",
                                        object([
                                            ("startLine", String(finding.location.line)),
                                            ("startColumn", String(finding.location.column)),
                                        ])
                                    ),
                                ])
                            )
                        ])
                    ])
                ),
            ])
        }
        let driver = object([
            ("name", string("cellar")), ("version", string(VersionInfo.version)),
            ("rules", array(rules)),
        ])
        let run = object([
            ("tool", object([("driver", driver)])), ("columnKind", string("unicodeCodePoints")), ("results", array(results)),
        ])
        return object([
            ("$schema", string("https://json.schemastore.org/sarif-2.1.0.json")), ("version", string("2.1.0")),
            ("runs", array([run])),
        ]) + "\n"
    }

    /// A relative path as a URI reference: each segment percent-encoded where RFC 3986 requires it.
    static func uri(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.append(Character(UnicodeScalar(byte)))
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    private func string(_ text: String) -> String { JSONString.quoted(text) }

    private func object(_ members: [(String, String)]) -> String {
        "{" + members.map { "\(JSONString.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    private func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(width - count, 0)) + self
    }
}
