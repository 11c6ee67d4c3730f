import Glibc
import TestSupport
import Testing

/// Runs every example of `docs/migrator/coming-from-other-tools.md` as written, in order, in one
/// folder: a `sh` block must succeed; in a `console` block each `$` line runs and must print the lines
/// below it (standard output and standard error each in order; durations read as `N ms`).
@Suite struct ComingFromOtherToolsDocTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// One fenced block of the page: its language and its lines, without the fence's indentation.
    struct Block {
        let language: String
        let lines: [String]
        let line: Int
    }

    static func blocks(of text: String) -> [Block] {
        var blocks: [Block] = []
        var open: (language: String, indent: Int, lines: [String], line: Int)?
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            let indent = line.prefix { $0 == " " }.count
            let trimmed = line.dropFirst(indent)
            if var current = open {
                if trimmed == "```" {
                    blocks.append(Block(language: current.language, lines: current.lines, line: current.line))
                    open = nil
                } else {
                    current.lines.append(String(line.dropFirst(min(indent, current.indent))))
                    open = current
                }
            } else if trimmed.hasPrefix("```") {
                open = (String(trimmed.dropFirst(3)), indent, [], number + 1)
            }
        }
        return blocks
    }

    /// `12 ms` reads as `N ms`: the only part of the output that differs from run to run.
    static func normalized(_ line: String) -> String {
        line.replacing(/\d+ ms/, with: "N ms")
    }

    @Test func everyExampleRunsAsWritten() throws {
        let page = try FileBytes.readText(Self.root + "/docs/migrator/coming-from-other-tools.md")
        let blocks = Self.blocks(of: page).filter { $0.language == "sh" || $0.language == "console" }
        #expect(blocks.count >= 6, "the page's examples were found")
        let folder = TemporaryDirectory()
        let binaryFolder = Cellar.executablePath.split(separator: "/").dropLast().joined(separator: "/")
        var environment = Cellar.cleanEnvironment
        environment["DATABASE_URL"] = nil
        environment["PATH"] = "/\(binaryFolder):" + (environment["PATH"] ?? "/usr/bin:/bin")
        for block in blocks {
            if block.language == "sh" {
                let result = try Shell.run(
                    "/bin/bash", ["-euo", "pipefail", "-c", block.lines.joined(separator: "\n")], environment: environment,
                    directory: folder.path)
                #expect(result.status == 0, "line \(block.line): \(result)")
                continue
            }
            var index = 0
            while index < block.lines.count {
                let command = block.lines[index]
                guard command.hasPrefix("$ ") else {
                    Issue.record("line \(block.line + index): output without a command: \(command)")
                    break
                }
                index += 1
                var expected: [String] = []
                while index < block.lines.count, !block.lines[index].hasPrefix("$ ") {
                    expected.append(block.lines[index])
                    index += 1
                }
                let result = try Shell.run(
                    "/bin/bash", ["-c", String(command.dropFirst(2))], environment: environment, directory: folder.path)
                var output = result.output.split(separator: "\n").map { Self.normalized(String($0)) }[...]
                var error = result.error.split(separator: "\n").map { Self.normalized(String($0)) }[...]
                for line in expected.map(Self.normalized) {
                    if output.first == line {
                        output.removeFirst()
                    } else if error.first == line {
                        error.removeFirst()
                    } else {
                        Issue.record("line \(block.line): '\(command)' did not print '\(line)'; it printed:\n\(result)")
                        break
                    }
                }
                #expect(output.isEmpty && error.isEmpty, "line \(block.line): '\(command)' printed more:\n\(result)")
            }
        }
    }
}
