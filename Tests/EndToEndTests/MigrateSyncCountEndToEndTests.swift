import Glibc
import TestSupport
import Testing

/// Issue 26: `migrate` of `transaction:false` files, each its own `BEGIN`/`COMMIT`, syncs no more per
/// commit than sqlite3 does on the same files (its `DELETE` journal mode: the journal, its directory, the
/// journal's header, the database). `migrate` keeps the journal between commits (`PERSIST`) and still
/// zeroes and syncs its header at each commit, so its directory must be synced once, not at every commit.
/// Counted with strace, which does not depend on the machine's load. (Before the directory sync was
/// spared: 50 `fdatasync` calls against sqlite3's 40.)
@Suite struct MigrateSyncCountEndToEndTests {
    /// The `fdatasync` calls `executable arguments…` makes, counted by strace.
    private func syncs(_ executable: String, _ arguments: [String], input: String? = nil, in folder: TemporaryDirectory)
        throws -> Int
    {
        let strace = try PeerTool.strace.require()
        let trace = folder.file("trace-\(UInt32.random(in: 0...UInt32.max))")
        let result = try Shell.run(
            strace, ["-f", "-e", "trace=fdatasync", "-o", trace, executable] + arguments,
            environment: Cellar.cleanEnvironment, input: input.map { Array($0.utf8) })
        #expect(result.status == 0, "\(result)")
        let lines = try FileBytes.read(trace).split(separator: UInt8(ascii: "\n"))
        return lines.filter { String(decoding: $0, as: UTF8.self).contains("fdatasync(") }.count
    }

    @Test(.enabled(if: PeerTool.strace.isExpected, "\(PeerTool.strace.skipReason)"))
    func ownTransactionsSyncAsOftenAsSqlite3() throws {
        let folder = TemporaryDirectory()
        var script = ""
        for index in 1...10 {
            let file =
                "-- migrate:up transaction:false\nBEGIN;\nCREATE TABLE t_\(index) (id INTEGER PRIMARY KEY, name TEXT);\n"
                + "INSERT INTO t_\(index) (name) VALUES ('a'), ('b');\nCOMMIT;\n"
            try folder.write("migrations/\(index)_own.sql", file)
            script += file
        }
        let cellar = try syncs(
            Cellar.executablePath, ["migrate", "-q", "-d", folder.file("cellar.db"), "-m", folder.file("migrations")],
            in: folder)
        let sqlite3 = try syncs("/usr/bin/sqlite3", [folder.file("sqlite3.db")], input: script, in: folder)
        #expect(sqlite3 == 40, "four per commit")
        // One directory sync when the journal is first created; none at the commits after it.
        #expect(cellar == sqlite3 + 1, "cellar \(cellar), sqlite3 \(sqlite3)")
        #expect(try tableNames(folder.file("cellar.db")).filter { $0.hasPrefix("t_") }.count == 10)
    }
}
