import TestSupport
import Testing

@testable import CellarCLI

/// `DotCommandAbbreviationTests`' table of what sqlite3 3.40.1 runs for each prefix, checked against
/// `/usr/bin/sqlite3` itself: sqlite3 takes a prefix as a command when running `.PREFIX ARG` does
/// what running the command's full name with ARG does (the same output, errors, exit status and
/// files written) for each probe argument. About 900 runs of sqlite3, so a slow suite.
@Suite struct SQLite3DotCommandAbbreviationSlowTests {
    static let sqlite3 = "/usr/bin/sqlite3"
    /// No argument (usage errors), a number (`.progress 1` counts, `.exit 1` exits 1), a file name
    /// (`.once x` and `.output x` write it, differently: the script runs two statements).
    static let probes = ["", "1", "x"]

    /// One run of `.word probe` then two statements, in a folder of its own holding a database with a
    /// table and an index; the folder's path and digits are masked (`.stats` and `.timer` print counters and times), and so
    /// is the typed name where a usage line repeats it (`Usage lin sub-command`).
    private func transcript(_ word: String, _ probe: String, fixture: [UInt8], shownAs name: String) throws -> String {
        let folder = TemporaryDirectory()
        _ = try folder.write("db", bytes: fixture)
        let line = "." + word + (probe.isEmpty ? "" : " " + probe)
        let run = try Shell.run(
            Self.sqlite3, ["db"], directory: folder.path, input: Array((line + "\nselect 42;\nselect 43;\n").utf8),
            timeout: 60)
        var files = ""
        for file in ["1", "x"] where FileBytes.exists(folder.file(file)) {
            files += "\n[\(file)] " + String(decoding: try FileBytes.read(folder.file(file)), as: UTF8.self)
        }
        let text = "\(run.status)\n\(run.output)\n\(run.error)\(files)"
            .replacing("Usage \(word) ", with: "Usage \(name) ").replacing(folder.path, with: "FOLDER")
        // Numbers become one `#` whatever their length: `.stats` prints memory counts that differ from
        // run to run in their number of digits too.
        var masked = ""
        for character in text where !(character.isNumber && masked.last == "#") {
            masked.append(character.isNumber ? "#" : character)
        }
        return masked
    }

    @Test func theTableIsWhatSQLite3Does() throws {
        try #require(FileBytes.exists(Self.sqlite3), "sqlite3 is not installed")
        let folder = TemporaryDirectory()
        try Shell.run(Self.sqlite3, [folder.file("fixture.db"), "create table t(x); create index i on t(x);"])
        let fixture = try FileBytes.read(folder.file("fixture.db"))
        var full: [String: String] = [:]
        func fullRun(_ name: String, _ probe: String) throws -> String {
            if let known = full[name + " " + probe] { return known }
            let text = try transcript(name, probe, fixture: fixture, shownAs: name)
            full[name + " " + probe] = text
            return text
        }
        let shared = DotCommandCatalog.entries.filter { $0.abbreviation != .unique }
        for (prefix, owner) in DotCommandAbbreviationTests.cases {
            if owner.isEmpty {
                let run = try transcript(prefix, "", fixture: fixture, shownAs: prefix)
                #expect(run.contains("unknown command or invalid arguments"), "'.\(prefix)': \(run)")
            }
            for row in shared where row.isNamed(startingWith: prefix) {
                var same = true
                for probe in Self.probes where same {
                    same = try transcript(prefix, probe, fixture: fixture, shownAs: row.name) == fullRun(row.name, probe)
                }
                #expect(same == (owner == row.name), "sqlite3 runs '.\(prefix)' as .\(row.name): \(same)")
            }
        }
    }
}
