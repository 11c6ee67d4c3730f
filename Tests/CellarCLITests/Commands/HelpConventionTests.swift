import CellarKit
import Testing

@testable import CellarCLI

/// `cellar help`, `-h`, `-V`, bare `cellar`, and the man page made from the same table as `--help`.
@Suite struct HelpConventionTests {
    static let commandNames = CommandTable.cellar.commandNames

    @Test(arguments: commandNames)
    func helpCommandPrintsTheSameTextAsTheHelpOption(name: String) {
        let viaCommand = InProcessRun(["help", name])
        let viaOption = InProcessRun([name, "--help"])
        let viaShortOption = InProcessRun([name, "-h"])
        #expect(viaCommand.status == 0)
        #expect(viaCommand.error.isEmpty)
        #expect(viaCommand.output.hasPrefix("OVERVIEW: "))
        #expect(viaCommand.output == viaOption.output)
        #expect(viaCommand.output == viaShortOption.output)
    }

    @Test func bareCellarHelpAndDashDashHelpPrintTheOverviewOnStandardOutput() {
        let bare = InProcessRun([])
        #expect(bare.status == 0)
        #expect(bare.error.isEmpty)
        #expect(bare.output.contains("SUBCOMMANDS:"))
        for arguments in [["help"], ["--help"], ["-h"]] {
            let run = InProcessRun(arguments)
            #expect(run.status == 0)
            #expect(run.output == bare.output, "\(arguments)")
        }
    }

    @Test func shortAndLongVersionAgree() {
        let long = InProcessRun(["--version"])
        let short = InProcessRun(["-V"])
        #expect(short.status == 0)
        #expect(short.output == long.output)
        #expect(short.output.hasPrefix("cellar \(VersionInfo.version) (SQLite "))
        #expect(InProcessRun([]).output.contains("-V, --version"))
    }

    /// With a command, `-V` still only asks for the version: a `migrate` must not run in its place.
    @Test(arguments: [["-V", "migrate"], ["migrate", "--version"], ["setup", "-V", "-d", "/nonexistent/x.db"]])
    func theVersionFlagWithACommandPrintsTheVersionAndRunsNothing(arguments: [String]) {
        let run = InProcessRun(arguments, environment: ["CELLAR_MIGRATIONS": "/nonexistent/migrations"])
        #expect(run.status == 0 && run.output == InProcessRun(["--version"]).output && run.error.isEmpty, "\(run)")
    }

    @Test func helpForAnUnknownCommandIsAUsageErrorWithASuggestion() {
        let run = InProcessRun(["help", "migrat"])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("unknown command 'migrat'; did you mean 'migrate'?"))
    }

    @Test func completionsForAnUnknownShellIsAUsageError() {
        let run = InProcessRun(["completions", "tcsh"])
        #expect(run.status == 2)
        #expect(run.output.isEmpty)
        #expect(run.error.contains("unknown shell 'tcsh'"))
        #expect(InProcessRun(["completions"]).status == 2)
    }

    // MARK: - The man page

    @Test func theManualHasEveryCommandAndEveryOptionThatHelpLists() throws {
        let manual = InProcessRun(["manual"])
        #expect(manual.status == 0)
        let page = Self.plainText(manual.output)
        let overview = InProcessRun(["--help"]).output
        let listed = Self.commandNames(inOverview: overview)
        #expect(Set(listed) == Set(Self.commandNames))
        for option in Self.optionNames(in: overview, section: "OPTIONS:") {
            #expect(Self.section(".SH OPTIONS", in: page).contains(option), "global option \(option)")
        }
        for name in listed {
            let help = InProcessRun([name, "--help"]).output
            let canonical = try #require(CommandTable.cellar.command(named: name)).name
            let section = Self.commandSection(canonical, in: page)
            #expect(!section.isEmpty, "no section for \(name)")
            #expect(section.contains(name), "\(name) not named in its section")
            for option in Self.optionNames(in: help, section: "OPTIONS:") {
                #expect(section.contains(option), "\(name): option \(option) missing from the manual")
            }
            for option in Self.optionNames(in: help, section: "GLOBAL OPTIONS:") {
                #expect(Self.section(".SH OPTIONS", in: page).contains(option), "\(name): global \(option)")
            }
        }
    }

    @Test func theManualEscapesRoffAndStartsWithTheTitle() {
        let page = InProcessRun(["manual"]).output
        #expect(page.contains(".TH CELLAR 1 \"\" \"cellar \(VersionInfo.version)\""))
        #expect(page.contains(#"\fB\-\-database\fR \fIpath\fR"#))
        let text = page.split(separator: "\n").filter { !$0.hasPrefix(".") }
        #expect(!text.contains { $0.hasPrefix("'") })
        #expect(!text.contains { $0.contains(" --") }, "an unescaped option would print with hyphens")
    }

    // MARK: - Reading help and roff

    /// The first column of the SUBCOMMANDS table, aliases split off.
    private static func commandNames(inOverview help: String) -> [String] {
        let table = help.components(after: "SUBCOMMANDS:").prefix { !$0.isEmpty }
        return table.flatMap { line -> [String] in
            let firstColumn = line.trimmingPrefix("  ").split(separator: "  ").first ?? ""
            return firstColumn.split(separator: ", ").map(String.init)
        }
    }

    /// `--database`, `-d`, … of the rows of one options table.
    private static func optionNames(in help: String, section: String) -> [String] {
        let rows = help.components(after: section).prefix { !$0.isEmpty }
        return rows.flatMap { row -> [String] in
            let synopsis = row.trimmingPrefix("  ").split(separator: "  ").first ?? ""
            return synopsis.split(whereSeparator: { $0 == " " || $0 == "," }).filter { $0.hasPrefix("-") }.map(String.init)
        }
    }

    /// roff with its escapes and font changes removed: `\-\-mode` reads `--mode`.
    private static func plainText(_ roff: String) -> String {
        var text = roff
        for (escape, plain) in [(#"\-"#, "-"), (#"\fB"#, ""), (#"\fI"#, ""), (#"\fR"#, ""), (#"\&"#, ""), (#"\e"#, #"\"#)] {
            text = text.replacing(escape, with: plain)
        }
        return text
    }

    private static func section(_ heading: String, in page: String) -> String {
        guard let start = page.firstRange(of: heading + "\n") else { return "" }
        let rest = page[start.upperBound...]
        let end = rest.firstRange(of: "\n.SH ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    private static func commandSection(_ name: String, in page: String) -> String {
        let commands = section(".SH COMMANDS", in: page)
        let sections = ("\n" + commands).split(separator: "\n.SS ").map(String.init)
        return sections.first { $0.hasPrefix("\"\(name)\"") || $0.hasPrefix("\"\(name),") } ?? ""
    }
}

extension String {
    /// The lines after the line that is exactly `heading`.
    fileprivate func components(after heading: String) -> ArraySlice<String> {
        let lines = split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(of: heading) else { return [] }
        return lines[(index + 1)...]
    }
}
