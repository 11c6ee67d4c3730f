import TestSupport
import Testing

@testable import CellarCLI

/// docs/reference/commands.md is generated from the command table (`scripts/generate-reference`); the
/// man page carries the sections a man page reader looks for.
@Suite struct ReferencePageTests {
    @Test func theCheckedInReferenceIsWhatTheCommandTableSays() throws {
        let generated = InProcessRun(["manual", "--format", "markdown"])
        #expect(generated.status == 0, "\(generated)")
        let checkedIn = try FileBytes.readText(Repository.root + "/docs/reference/commands.md")
        #expect(checkedIn == generated.output, "docs/reference/commands.md is stale: run scripts/generate-reference")
    }

    @Test func theReferenceHasEveryCommandItsOptionsAndItsExamples() {
        let page = InProcessRun(["manual", "--format", "markdown"]).output
        for command in CommandTable.cellar.commands {
            let start = page.firstRange(of: "\n## cellar \(command.name)\n")
            #expect(start != nil, "no section for \(command.name)")
            guard let start else { continue }
            let rest = page[start.upperBound...]
            let section = rest[..<(rest.firstRange(of: "\n## ")?.lowerBound ?? rest.endIndex)]
            #expect(page.contains("](#cellar-\(command.name))"), "the index does not link \(command.name)")
            for option in command.options {
                #expect(section.contains("--\(option.long)"), "\(command.name): --\(option.long) missing")
            }
            for example in command.examples {
                #expect(section.contains("\n\(example.commandLine)\n"), "\(command.name): \(example.commandLine) missing")
            }
        }
    }

    @Test func markupInHelpTextIsEscapedInTheReference() {
        let page = InProcessRun(["manual", "--format", "markdown"]).output
        #expect(page.contains("| `<put\\|get>` |"))
        #expect(page.contains("&lt;db>"))
        #expect(!page.contains("](#cellar-up)"))
    }

    @Test func anUnknownFormatIsAUsageError() {
        let run = InProcessRun(["manual", "--format", "html"])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("expects roff or markdown, not 'html'"), "\(run)")
    }

    @Test(arguments: ["EXAMPLES", "FILE FORMAT", "FILES", "ENVIRONMENT", "EXIT STATUS"])
    func theManPageHasTheSection(title: String) {
        let page = InProcessRun(["manual"]).output
        #expect(page.contains("\n.SH \(title)\n"), "no \(title) in the man page")
    }

    @Test func theManPageShowsEveryExampleOfEveryCommand() {
        let page = InProcessRun(["manual"]).output
        let examples = page[(page.firstRange(of: "\n.SH EXAMPLES\n")?.upperBound ?? page.endIndex)...]
        for command in CommandTable.cellar.commands {
            #expect(examples.contains(#".SS "\#(command.name)""#), "\(command.name) has no examples in the man page")
            for example in command.examples {
                #expect(examples.contains(RoffText.bold(example.commandLine)), "\(example.commandLine)")
            }
        }
    }
}

/// The README's "Commands at a glance" is the reference's index without its links, spliced in by
/// scripts/generate-reference.
@Suite struct ReadmeCommandTableTests {
    @Test func theReadmeListsEveryCommandAsTheReferenceDoes() throws {
        let page = InProcessRun(["manual", "--format", "markdown"]).output
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "| command | what it does |"))
        let end = lines[start...].firstIndex(of: "") ?? lines.endIndex
        let expected = lines[start..<end].map { String($0).replacing(/\[(`[^\]]*`)\]\(#[^)]*\)/) { String($0.output.1) } }
        let readme = try FileBytes.readText(Repository.root + "/README.md").split(
            separator: "\n", omittingEmptySubsequences: false)
        let open = try #require(readme.firstIndex { $0.hasPrefix("<!-- commands") })
        let close = try #require(readme.firstIndex(of: "<!-- /commands -->"))
        #expect(
            readme[(open + 1)..<close].map(String.init) == expected,
            "README.md's command table is stale: run scripts/generate-reference")
        for command in CommandTable.cellar.commands {
            #expect(expected.contains { $0.hasPrefix("| `\(command.name)`") }, "\(command.name) is not in the README")
        }
    }
}
