import TestSupport
import Testing

/// The README's terminal sessions run as written: each `$ ` line of a ```` ```console ```` block runs in
/// a shell with the built cellar first on the PATH, in a fresh folder that the quick start fills (a block
/// marked `console example` runs in a copy of the example project instead), and every line the README
/// shows must come out (times and durations aside). A ```` ```sql file=PATH ```` block is the
/// file the reader is told to write, and is written there.
@Suite struct ReadmeExamplesTests {
    @Test func theReadmeSessionsRunAsWritten() throws {
        let readme = try FileBytes.readText(Repository.root + "/README.md")
        let blocks = Self.blocks(readme)
        #expect(blocks.filter { $0.language == "console" }.count >= 5)
        let project = TemporaryDirectory()
        let example = TemporaryDirectory()
        try Shell.run("/bin/cp", ["-R", Repository.root + "/migrations", Repository.root + "/seeds", example.path])
        for block in blocks {
            if let path = block.file {
                try project.write(path, block.body)
                continue
            }
            guard block.language == "console" else { continue }
            for step in Self.steps(block.body) {
                let folder = block.info.contains("example") ? example.path : project.path
                try run(step, in: folder)
            }
        }
    }

    @Test func outputMatchesWhenTheShownLinesComeOutInOrderWhateverTheTimes() {
        let shown = ["applied 1 migration in 12 ms; now at version 1"]
        #expect(Self.missingLine(shown, in: "applying 0001\napplied 1 migration in 340 ms; now at version 1\n") == nil)
        #expect(Self.missingLine(shown, in: "applied 1 migration in 12 ms; now at version 2\n") != nil)
        #expect(Self.missingLine(["b", "a"], in: "a\nb\n") == nil)
        #expect(Self.missingLine(["a", "a"], in: "a\nb\n") == "a")
        #expect(Self.normalized("  applied  0001 x  2026-12-01T21:35:13Z (17 ms)") == "  applied  0001 x  TIME (N ms)")
    }

    private func run(_ step: Step, in folder: String) throws {
        let binary = Cellar.executablePath
        var environment = Cellar.cleanEnvironment
        environment["PATH"] = String(binary[..<(binary.lastIndex(of: "/") ?? binary.startIndex)]) + ":/usr/bin:/bin"
        environment["DATABASE_URL"] = nil
        let result = try Shell.run("/bin/sh", ["-c", step.command + " 2>&1"], environment: environment, directory: folder)
        let expectsFailure = step.output.contains { $0.contains("error:") }
        #expect((result.status != 0) == expectsFailure, "$ \(step.command)\n\(result)")
        if let missing = Self.missingLine(step.output, in: result.output) {
            Issue.record("$ \(step.command): the README shows '\(missing)', the command printed:\n\(result.output)")
        }
    }

    // MARK: - Reading the README

    struct Block {
        let language: String
        let info: String
        let body: String
        /// The path a ```` ```sql file=PATH ```` block is to be written to.
        var file: String? {
            info.split(separator: " ").first { $0.hasPrefix("file=") }.map { String($0.dropFirst("file=".count)) }
        }
    }

    struct Step {
        let command: String
        let output: [String]
    }

    static func blocks(_ text: String) -> [Block] {
        var blocks: [Block] = []
        var open: (language: String, info: String, lines: [Substring])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if var current = open {
                if line == "```" {
                    blocks.append(
                        Block(language: current.language, info: current.info, body: current.lines.map { $0 + "\n" }.joined()))
                    open = nil
                } else {
                    current.lines.append(line)
                    open = current
                }
            } else if line.hasPrefix("```") {
                let words = line.dropFirst(3).split(separator: " ", maxSplits: 1)
                open = (String(words.first ?? ""), words.count > 1 ? String(words[1]) : "", [])
            }
        }
        return blocks
    }

    static func steps(_ body: String) -> [Step] {
        var steps: [Step] = []
        for line in body.split(separator: "\n") {
            if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), output: []))
            } else if let last = steps.popLast() {
                steps.append(Step(command: last.command, output: last.output + [String(line)]))
            }
        }
        return steps
    }

    /// The first of `shown` that does not come out of `output`, or nil when all do. Each printed line
    /// answers one shown line. Order is not compared: standard output and standard error reach a
    /// terminal interleaved, but a pipe holds standard output back until the command ends.
    static func missingLine(_ shown: [String], in output: String) -> String? {
        var printed = output.split(separator: "\n", omittingEmptySubsequences: false).map { normalized(String($0)) }
        for line in shown {
            guard let index = printed.firstIndex(of: normalized(line)) else { return line }
            printed.remove(at: index)
        }
        return nil
    }

    /// `line` with its times and durations, which differ on every run, replaced by placeholders.
    static func normalized(_ line: String) -> String {
        line.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/, with: "TIME").replacing(/\d+ ms/, with: "N ms")
    }
}
