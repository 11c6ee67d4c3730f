import TestSupport
import Testing

/// `run` keeps no more of a script than the statement it is on: a script of many short statements
/// runs in about the memory of a script of one. (The statement boundary scanner once lexed each 1 MiB
/// piece into an array of all its tokens: 100,000 `SELECT n;` lines raised the peak by about 20 MB, a
/// 500,000-line `INSERT` script's from 9 MB to 38 MB.)
@Suite struct ScriptMemoryTests {
    /// The peak resident memory of `cellar arguments…` in KiB, as GNU time reports it.
    private func peakKiB(_ arguments: [String], in folder: TemporaryDirectory) throws -> Int {
        let time = try PeerTool.gnuTime.require()
        let report = folder.file("peak-\(arguments.count)-\(UInt32.random(in: 0...UInt32.max))")
        let result = try Shell.run(
            time, ["-f", "%M", "-o", report, Cellar.executablePath] + arguments, environment: Cellar.cleanEnvironment)
        #expect(result.status == 0, "\(result)")
        let text = String(decoding: try FileBytes.read(report), as: UTF8.self)
        return try #require(text.split(separator: "\n").last.flatMap { Int($0) }, "\(text)")
    }

    @Test(.enabled(if: PeerTool.gnuTime.isExpected, "\(PeerTool.gnuTime.skipReason)"))
    func aScriptOfManyShortStatementsRunsInTheMemoryOfOne() throws {
        let folder = TemporaryDirectory()
        let one = try folder.write("one.sql", "SELECT 1;\n")
        let many = try folder.write("many.sql", (1...100_000).map { "SELECT \($0);\n" }.joined())
        let alone = try peakKiB(["run", "-q", "-d", folder.file("a.db"), one], in: folder)
        let together = try peakKiB(["run", "-q", "-d", folder.file("b.db"), many], in: folder)
        // 1.2 MB of script: the reading buffer and SQLite's own work, not a copy per token.
        #expect(together - alone < 6_000, "one statement: \(alone) KiB, 100,000: \(together) KiB")
    }
}
