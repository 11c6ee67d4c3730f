import CellarCLI
import CellarKit
import TestSupport
import Testing

/// Issue 15 H4: a statement spread over many lines, piped into the shell, costs time in proportion to
/// its length. Before, `sqlite3_complete` read the whole statement again after every line (quadratic).
@Suite struct PipedShellLinearitySlowTests {
    let folder = TemporaryDirectory()

    /// `SELECT length('…');` whose string literal spans lines, about `size` bytes in all.
    private static func manyLines(_ size: Int) -> [UInt8] {
        let line = Array("abcdefghijklmnopqrstuvwxyz;\n".utf8)
        return Array("SELECT length('\n".utf8) + Array(repeating: line, count: size / line.count).joined() + Array("');\n".utf8)
    }

    private func cost(of input: [UInt8]) -> Double {
        let path = folder.file("t.db")
        return ThreadCPUClock.cost {
            let run = InProcessRun(["shell", "-d", path], input: input)
            #expect(run.status == 0)
            #expect(run.output == "\(input.count - 19)\n")
        }
    }

    @Test func aLongStatementCostsInProportionToItsLines() {
        let small = cost(of: Self.manyLines(128 << 10))
        let large = cost(of: Self.manyLines(1 << 20))
        // 8 times the input: about 8 times the work when linear, 64 times when quadratic.
        #expect(large / small < 24, "128 KiB: \(small) s, 1 MiB: \(large) s of CPU")
    }
}
