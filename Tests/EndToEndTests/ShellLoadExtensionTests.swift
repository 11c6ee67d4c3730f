import CellarKit
import TestSupport
import Testing

/// `.load FILE` in the shell: the extension's functions work afterwards, SQL text still cannot load
/// one, and `--safe` refuses the command.
@Suite(.enabled(if: FileBytes.exists("/usr/bin/cc"), "needs a C compiler to build the test extension"))
struct ShellLoadExtensionTests {
    private static let source = """
        #include <sqlite3ext.h>
        SQLITE_EXTENSION_INIT1
        static void twice(sqlite3_context *c, int n, sqlite3_value **v) { sqlite3_result_int64(c, 2 * sqlite3_value_int64(v[0])); }
        int sqlite3_twice_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
            SQLITE_EXTENSION_INIT2(api);
            return sqlite3_create_function(db, "twice", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, 0, twice, 0, 0);
        }
        """

    @Test func loadMakesTheFunctionsAvailableAsInSQLite3() throws {
        let folder = TemporaryDirectory()
        let source = try folder.write("twice.c", Self.source)
        let library = folder.file("twice.so")
        let compiled = try Shell.run("/usr/bin/cc", ["-shared", "-fPIC", "-o", library, source])
        #expect(compiled.status == 0, "\(compiled)")
        let input = ".load \(library)\nSELECT twice(21);\n"
        let ours = try Cellar.run(["shell", "e.db"], in: folder.path, input: input)
        #expect(ours.status == 0, "\(ours)")
        let theirs = try Shell.run("/usr/bin/sqlite3", [folder.file("s.db")], input: Array(input.utf8))
        #expect(ours.output == theirs.output)
        #expect(ours.output == "42\n")
        let bySQL = try Cellar.run(["shell", "e.db"], in: folder.path, input: "SELECT load_extension('\(library)');\n")
        #expect(bySQL.status == 1)
        #expect(bySQL.error.contains("not authorized"))
        let safe = try Cellar.run(["shell", "--safe", "e.db"], in: folder.path, input: input)
        #expect(safe.status == 1)
        #expect(safe.error.contains(".load is not allowed with --safe"))
        #expect(safe.error.contains("no such function: twice"))
    }
}
