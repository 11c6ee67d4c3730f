import BenchmarkReport
import Testing

/// The facts cellar-bench prints above its table.
struct RunHeaderTests {
    @Test(
        arguments: [
            (["cellar-bench", "--runs", "3"], "cellar-bench --runs 3"),
            ([".build/release/cellar-bench", "--only", "fleet-migrate"], ".build/release/cellar-bench --only fleet-migrate"),
            (["bench", "two words", ""], "bench 'two words' ''"),
            (["bench", "it's"], "bench 'it'\\''s'"),
            (["bench", "$HOME", "a*b"], "bench '$HOME' 'a*b'"),
        ] as [([String], String)])
    func commandLineIsQuotedAsAShellReadsItBack(arguments: [String], text: String) {
        #expect(RunHeader.shellQuoted(arguments) == text)
    }

    @Test func headerNamesTheCommandTimesVersionMachineBusyLoopsAndEveryRoundsLoad() {
        let header = RunHeader(
            arguments: ["cellar-bench", "--rounds", "2", "--busy", "2"], started: "2026-12-02T03:30:00Z",
            ended: "2026-12-02T03:41:00Z", cellarVersion: "cellar 0.1.0 (SQLite 3.40.1)", sourceRevision: "fbf83c5",
            cpuCount: 2, busyLoops: 2,
            loads: [
                RunHeader.RoundLoad(before: "0.10 0.20 0.30", after: "2.10 1.20 0.70"),
                RunHeader.RoundLoad(before: "2.10 1.20 0.70", after: "2.50 1.60 0.90"),
            ])
        #expect(
            header.lines == [
                "- command: `cellar-bench --rounds 2 --busy 2`",
                "- started 2026-12-02T03:30:00Z, ended 2026-12-02T03:41:00Z (UTC)",
                "- cellar: cellar 0.1.0 (SQLite 3.40.1); source tree: fbf83c5",
                "- machine: 2 CPUs; 2 busy loops (`/bin/sh` spinning) during the measurement",
                "- load average (1, 5, 15 min), round 1: 0.10 0.20 0.30 before, 2.10 1.20 0.70 after",
                "- load average (1, 5, 15 min), round 2: 2.10 1.20 0.70 before, 2.50 1.60 0.90 after",
            ])
    }

    @Test func quietRunWithoutVersionOrRevisionSaysSo() {
        let header = RunHeader(
            arguments: ["cellar-bench"], started: "a", ended: "b", cellarVersion: nil, sourceRevision: nil, cpuCount: 1,
            busyLoops: 0, loads: [])
        #expect(header.lines[2] == "- cellar: (no version printed); source tree: unknown")
        #expect(header.lines[3] == "- machine: 1 CPU; no busy loops")
    }
}
