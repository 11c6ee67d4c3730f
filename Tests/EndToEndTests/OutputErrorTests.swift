import TestSupport
import Testing

/// A failure to write standard output is an error (exit 1); a closed pipe ends the command quietly.
@Suite struct OutputErrorTests {
    private func setUp() throws -> TemporaryDirectory {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_wineries.sql", "CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT);\n")
        #expect(try Cellar.run(["migrate"], in: folder.path).status == 0)
        return folder
    }

    /// Runs `cellar arguments…` through `/bin/sh` with `redirection` applied to its standard output.
    private func cellar(_ arguments: [String], _ redirection: String, in folder: TemporaryDirectory) throws
        -> ChildProcess.Result
    {
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        return try Shell.run(
            "/bin/sh", ["-c", "\"$0\" \(quoted) \(redirection)", Cellar.executablePath],
            environment: Cellar.cleanEnvironment, directory: folder.path)
    }

    @Test(arguments: [["schema"], ["status"], ["new", "later"], ["--help"], ["--version"], ["query", "SELECT 1"]])
    func writingToAFullDeviceIsAnError(arguments: [String]) throws {
        let folder = try setUp()
        let result = try cellar(arguments, "> /dev/full", in: folder)
        #expect(result.status == 1, "\(arguments): \(result)")
        #expect(result.error == "cellar: error: cannot write the output: No space left on device\n", "\(arguments)")
    }

    @Test func aClosedPipeEndsTheCommandQuietlyEvenWithSIGPIPEIgnored() throws {
        let folder = try setUp()
        let rows = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5000000) SELECT x FROM c"
        let result = try Shell.run(
            "/bin/sh", ["-c", "trap '' PIPE; \"$0\" query '\(rows)' | head -1; echo \"exit $?\"", Cellar.executablePath],
            environment: Cellar.cleanEnvironment, directory: folder.path)
        #expect(result.output == "1\nexit 0\n")
        #expect(result.error.isEmpty, "\(result)")
    }
}
