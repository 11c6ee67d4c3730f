import CellarKit
import Glibc
import TestSupport
import Testing

/// An argument that is not UTF-8 is refused with a usage error naming its position, instead of being
/// read with U+FFFD in place of its bytes (which named another file, or stored another value).
@Suite struct NonUTF8ArgumentTests {
    /// Runs `cellar` with `arguments`, a shell word list where `printf` builds the raw bytes.
    private func cellar(_ arguments: String, in folder: TemporaryDirectory) throws -> ChildProcess.Result {
        try Shell.run(
            "/bin/sh", ["-c", "exec \"$0\" \(arguments)", Cellar.executablePath], environment: Cellar.cleanEnvironment,
            directory: folder.path)
    }

    private func entries(of folder: TemporaryDirectory) -> [String] {
        ((try? DirectoryListing.fileNames(in: folder.path)) ?? []).sorted()
    }

    @Test(arguments: [
        ("-d \"$(printf 'caf\\351.db')\" migrate", 2),
        ("--database=\"$(printf 'caf\\351.db')\" migrate", 1),
        ("query -d t.db --param \"x=$(printf '\\377')\" 'SELECT :x'", 5),
        ("query -d t.db \"$(printf 'SELECT 1 -- \\351')\"", 4),
    ])
    func aNonUTF8ArgumentIsAUsageErrorNamingItsPosition(arguments: String, position: Int) throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);\n")
        #expect(try Cellar.run(["create", "-d", "t.db"], in: folder.path).status == 0)
        let before = entries(of: folder)
        let result = try cellar(arguments, in: folder)
        #expect(result.status == 2, "\(result)")
        #expect(result.error.hasPrefix("cellar: error: argument \(position) is not valid UTF-8"), "\(result.error)")
        #expect(result.output.isEmpty)
        #expect(entries(of: folder) == before, "nothing was created")
    }

    @Test(arguments: ["CELLAR_DATABASE", "DATABASE_URL", "CELLAR_MIGRATIONS"])
    func aNonUTF8SettingVariableIsAUsageErrorNamingIt(name: String) throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);\n")
        let before = entries(of: folder)
        let result = try Shell.run(
            "/bin/sh", ["-c", "\(name)=\"$(printf 'caf\\351')\" exec \"$0\" migrate", Cellar.executablePath],
            environment: Cellar.cleanEnvironment, directory: folder.path)
        #expect(result.status == 2, "\(result)")
        #expect(result.error.hasPrefix("cellar: error: environment variable \(name) is not valid UTF-8"), "\(result.error)")
        #expect(entries(of: folder) == before, "nothing was created")
    }

    @Test func aUTF8ArgumentStillNamesItsFile() throws {
        let folder = TemporaryDirectory()
        try folder.write("migrations/0001_a.sql", "CREATE TABLE a (x);\n")
        let result = try cellar("-d \"$(printf 'caf\\303\\251.db')\" migrate", in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(access(folder.file("café.db"), F_OK) == 0)
    }
}
