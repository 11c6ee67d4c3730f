import CellarKit
import TestSupport
import Testing

/// `--load-extension PATH`: extensions load only when asked for, and never through SQL text.
@Suite(.enabled(if: FileBytes.exists("/usr/bin/cc"), "needs a C compiler to build the test extension"))
struct ExtensionLoadingTests {
    private static let source = """
        #include <sqlite3ext.h>
        SQLITE_EXTENSION_INIT1
        static void half(sqlite3_context *c, int n, sqlite3_value **v) { sqlite3_result_double(c, sqlite3_value_double(v[0]) / 2.0); }
        int sqlite3_half_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
            SQLITE_EXTENSION_INIT2(api);
            return sqlite3_create_function(db, "half", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, 0, half, 0, 0);
        }
        """

    private func builtExtension(in folder: TemporaryDirectory) throws -> String {
        let source = try folder.write("half.c", Self.source)
        let library = folder.file("half.so")
        let compiled = try Shell.run("/usr/bin/cc", ["-shared", "-fPIC", "-o", library, source])
        #expect(compiled.status == 0, "\(compiled)")
        try Database(path: folder.file("e.db")).execute("CREATE TABLE t(x)")
        return library
    }

    @Test func extensionLoadsOnlyWithTheFlag() throws {
        let folder = TemporaryDirectory()
        let library = try builtExtension(in: folder)
        let without = try Cellar.run(["query", "SELECT half(9)", "-d", "e.db"], in: folder.path)
        #expect(without.status == 1)
        #expect(without.error.contains("no such function: half"))
        let with = try Cellar.run(["query", "SELECT half(9)", "-d", "e.db", "--load-extension", library], in: folder.path)
        #expect(with.status == 0, "\(with)")
        #expect(with.output == "4.5\n")
    }

    @Test func sqlTextCannotLoadExtensionsEvenWithTheFlag() throws {
        let folder = TemporaryDirectory()
        let library = try builtExtension(in: folder)
        let result = try Cellar.run(
            ["query", "SELECT load_extension('\(library)')", "-d", "e.db", "--load-extension", library], in: folder.path)
        #expect(result.status == 1)
        #expect(result.error.contains("not authorized"))
    }

    @Test func aMissingExtensionIsAOneLineError() throws {
        let folder = TemporaryDirectory()
        _ = try builtExtension(in: folder)
        let result = try Cellar.run(
            ["query", "SELECT 1", "-d", "e.db", "--load-extension", folder.file("nope.so")], in: folder.path)
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("cellar: error: cannot load extension"))
        #expect(result.output.isEmpty)
    }

    @Test func aDryRunLoadsTheExtensionsAMigrationNeedsAsMigrateDoes() throws {
        let folder = TemporaryDirectory()
        let library = try builtExtension(in: folder)
        try folder.write("migrations/0001_halves.sql", "CREATE TABLE halves (x REAL);\nINSERT INTO halves VALUES (half(9));\n")
        let arguments = ["-d", "e.db", "--load-extension", library]
        let dryRun = try Cellar.run(["migrate", "--dry-run"] + arguments, in: folder.path)
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(dryRun.output.contains("would apply 1 migration"), "\(dryRun)")
        let applied = try Cellar.run(["migrate"] + arguments, in: folder.path)
        #expect(applied.status == 0, "\(applied)")
        let half = try Cellar.run(["query", "SELECT x FROM halves"] + arguments, in: folder.path)
        #expect(half.output == "4.5\n")
    }

    @Test func theShellsOpenLoadsTheExtensionsToo() throws {
        let folder = TemporaryDirectory()
        let library = try builtExtension(in: folder)
        try Database(path: folder.file("other.db")).execute("CREATE TABLE u(x)")
        let result = try Cellar.run(
            ["shell", "-d", "e.db", "--load-extension", library], in: folder.path, input: ".open other.db\nSELECT half(5);\n")
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "2.5\n")
    }
}
