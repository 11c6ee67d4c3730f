import CellarKit
import TestSupport
import Testing

/// Issue 15: shell defects that crashed the process, so their tests spawn the binary.
@Suite struct ShellHardeningTests {
    let folder = TemporaryDirectory()

    init() throws {
        try Database(path: folder.file("t.db")).execute(
            "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3), (4), (5);")
    }

    /// H5: `.maxrows` up to `Int.max` is a limit like any other (it trapped on an overflow).
    @Test(arguments: ["9223372036854775807", "9223372036854775806", "3"], ["box", "list"])
    func theLargestMaxRowsShowsEveryRow(maxRows: String, mode: String) throws {
        let result = try Cellar.run(
            ["shell", "-d", "t.db"], in: folder.path, input: ".mode \(mode)\n.maxrows \(maxRows)\nSELECT x FROM t;\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("5"))
        #expect(result.output.contains("1"))
        #expect(result.output.contains("3") == (maxRows != "3"))
    }
}
