import CellarKit
import TestSupport
import Testing

/// Issue 15 H4: one statement on one long line, read in many chunks, costs time in proportion to its
/// length. Before, every chunk searched the whole unfinished statement again (quadratic).
@Suite struct ScriptRunnerLinearitySlowTests {
    /// `INSERT INTO t VALUES (1,'…'),(2,'…'),…;` of about `size` bytes, on one line.
    private static func oneLongLine(_ size: Int) -> [UInt8] {
        var script = Array("INSERT INTO t VALUES (0,'x')".utf8)
        var row = 1
        while script.count < size {
            script += Array(",(\(row),'abcdefghijklmnopqrstuvwxyz')".utf8)
            row += 1
        }
        return script + Array(";".utf8)
    }

    private static func cost(of script: [UInt8]) throws -> Double {
        try ThreadCPUClock.cost {
            let database = try Database(path: ":memory:")
            try database.execute("CREATE TABLE t(id, name)")
            let runner = ScriptRunner(database: database, options: .init(chunkSize: 4096))
            try runner.run(BufferSource(script), path: "long.sql")
        }
    }

    @Test func aLongLineCostsInProportionToItsLength() throws {
        let small = try Self.cost(of: Self.oneLongLine(256 << 10))
        let large = try Self.cost(of: Self.oneLongLine(2 << 20))
        // 8 times the input: about 8 times the work when linear, 64 times when quadratic.
        #expect(large / small < 24, "256 KiB: \(small) s, 2 MiB: \(large) s of CPU")
    }
}
