import CellarKit
import TestSupport
import Testing

/// Issue 15 M8: `readfile` reads only regular files (an endless device allocated without bound and
/// aborted the process); the error names the path.
@Suite struct ReadFileBoundsTests {
    @Test(arguments: ["/dev/zero", "/dev/urandom", "FOLDER"])
    func aFileThatIsNotRegularIsAnErrorNamingIt(path: String) throws {
        let folder = TemporaryDirectory()
        let target = path == "FOLDER" ? folder.path : path
        let database = try Database(path: ":memory:")
        try database.registerFileFunctions()
        #expect {
            try database.execute("CREATE TABLE t AS SELECT readfile('\(target)') AS data")
        } throws: { error in
            (error as? SQLiteError)?.message.contains("readfile: '\(target)' is not a regular file") == true
        }
        #expect(try database.scalar("SELECT count(*) FROM sqlite_schema") == .integer(0))
    }

    @Test func aRegularFileIsStillRead() throws {
        let folder = TemporaryDirectory()
        let file = try folder.write("label.bin", bytes: [0, 1, 2, 255])
        let database = try Database(path: ":memory:")
        try database.registerFileFunctions()
        #expect(try database.scalar("SELECT hex(readfile('\(file)'))") == .text("000102FF"))
    }
}
