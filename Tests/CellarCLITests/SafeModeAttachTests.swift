import CellarCLI
import CellarKit
import TestSupport
import Testing

/// `--safe` refuses every `ATTACH` whose file SQLite cannot name to the authorizer (an expression, a
/// parameter), and `VACUUM INTO` however its target is written, in `query`, `shell` and `run`; a plain
/// `VACUUM` still works (issue 15, C2).
@Suite struct SafeModeAttachTests {
    enum Command: String, CaseIterable, CustomTestStringConvertible {
        case query, shell, run
        var testDescription: String { rawValue }
    }

    /// The attacks; `DIR` stands for the test's folder. `:f` is bound to `DIR/other.db` where the
    /// command can bind it (`query --param`, `.parameter set`); in `run` it stays NULL.
    static let attacks = [
        "ATTACH 'DIR/' || 'other.db' AS z; INSERT INTO z.secret VALUES ('written'); SELECT * FROM z.secret;",
        "ATTACH :f AS z; INSERT INTO z.secret VALUES ('written'); SELECT * FROM z.secret;",
        "ATTACH (SELECT 'DIR/other.db') AS z; SELECT * FROM z.secret;",
        "ATTACH 'DIR/' || 'new.db' AS z; CREATE TABLE z.t(x);",
        "VACUUM INTO 'DIR/' || 'copy.db';",
        "VACUUM INTO :f;",
    ]

    let folder = TemporaryDirectory()
    var database: String { folder.file("main.db") }
    var other: String { folder.file("other.db") }

    init() throws {
        try Database(path: folder.file("main.db")).execute("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        try Database(path: folder.file("other.db")).execute("CREATE TABLE secret(x); INSERT INTO secret VALUES ('hidden');")
    }

    private func cellar(_ command: Command, _ sql: String) throws -> InProcessRun {
        switch command {
        case .query:
            return InProcessRun(["query", sql, "--safe", "--param", ":f=\(other)", "-d", database])
        case .shell:
            return InProcessRun(
                ["shell", "--safe", "-d", database], input: Array(".parameter set :f '\(other)'\n\(sql)\n".utf8))
        case .run:
            let script = try folder.write("script.sql", sql + "\n")
            return InProcessRun(["run", script, "--safe", "--autocommit", "-d", database])
        }
    }

    @Test(arguments: Command.allCases, attacks)
    func attachWithAFileNameSQLiteCannotShowIsRefused(command: Command, attack: String) throws {
        let fingerprint = try FileBytes.read(other)
        let result = try cellar(command, attack.replacing("DIR", with: folder.path))
        #expect(result.status == 1)
        // In `run` nothing binds `:f`: VACUUM INTO NULL fails before it attaches anything.
        let refusal =
            command == .run && attack == "VACUUM INTO :f;" ? "non-text filename" : "ATTACH or VACUUM INTO is not allowed"
        #expect(result.error.contains(refusal), "\(result.error)")
        #expect(!result.output.contains("hidden"))
        #expect(try FileBytes.read(other) == fingerprint)
        #expect(!FileBytes.exists(folder.file("new.db")))
        #expect(!FileBytes.exists(folder.file("copy.db")))
        #expect(try Database(path: database).scalar("SELECT count(*) FROM t") == .integer(1))
    }

    @Test(arguments: Command.allCases)
    func plainVacuumStillWorks(command: Command) throws {
        let result = try cellar(command, "VACUUM; SELECT count(*) FROM t;")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "1\n")
    }
}
