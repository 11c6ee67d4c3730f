import CellarKit
import Testing

@Suite struct SafetyFeatureTests {
    @Test(arguments: ["BEGIN", "BEGIN IMMEDIATE", "COMMIT", "END", "ROLLBACK"])
    func transactionControlIsRefusedAtPrepareTime(statement: String) throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t(a)")
        let policy = ConnectionPolicy(refusesTransactionControl: true, isSafe: false)
        try database.execute("BEGIN")
        try policy.install(on: database)
        try database.execute("INSERT INTO t VALUES (1)")
        let error = #expect(throws: SQLiteError.self) { try database.execute(statement) }
        #expect(error?.resultCode == .auth)
        #expect(policy.lastRefusal != nil)
        #expect(try !database.isAutocommit)
        try policy.uninstall(from: database)
        try database.execute("ROLLBACK")
        #expect(try database.scalar("SELECT count(*) FROM t") == .integer(0))
    }

    @Test func savepointsStayAllowedUnderTheGuard() throws {
        let database = try Database(path: ":memory:")
        let policy = ConnectionPolicy(refusesTransactionControl: true, isSafe: false)
        try policy.install(on: database)
        try database.execute("SAVEPOINT s; CREATE TABLE t(a); ROLLBACK TO s; RELEASE s")
        #expect(policy.lastRefusal == nil)
    }

    @Test func directOnlyFunctionCannotRunFromAView() throws {
        let database = try Database(path: ":memory:")
        try database.createFunction("secret", argumentCount: 0, isDirectOnly: true) { _ in .text("s") }
        #expect(try database.scalar("SELECT secret()") == .text("s"))
        try database.execute("CREATE VIEW v AS SELECT secret() AS s")
        let error = #expect(throws: SQLiteError.self) { try database.execute("SELECT * FROM v") }
        #expect(error?.message.contains("unsafe use of secret()") == true)
    }

    @Test func swiftFunctionErrorsBecomeSQLErrors() throws {
        struct Refusal: Error, CustomStringConvertible { var description: String { "refused" } }
        let database = try Database(path: ":memory:")
        try database.createFunction("twice", argumentCount: 1, isDeterministic: true) { arguments in
            guard case .integer(let number) = arguments[0] else { throw Refusal() }
            return .integer(number * 2)
        }
        #expect(try database.scalar("SELECT twice(21)") == .integer(42))
        let error = #expect(throws: SQLiteError.self) { try database.execute("SELECT twice('x')") }
        #expect(error?.message == "refused")
    }

    @Test func readfileAndWritefileMoveBlobsInAndOut() throws {
        let database = try Database(path: ":memory:")
        try database.registerFileFunctions()
        let path = "/tmp/cellar-filefunctions-\(UInt64.random(in: 0...UInt64.max))"
        let bytes: [UInt8] = [0, 1, 2, 0xFF]
        #expect(try database.scalar("SELECT writefile(?, ?)", [path, bytes]) == .integer(4))
        #expect(try database.scalar("SELECT readfile(?)", [path]) == .blob(bytes))
        #expect {
            try database.scalar("SELECT readfile('/nonexistent/file')")
        } throws: { error in
            (error as? SQLiteError)?.message == "readfile: cannot read '/nonexistent/file': No such file or directory"
        }
        #expect(try database.scalar("SELECT readfile(NULL)") == .null)
    }

    @Test func defensiveModeRefusesWritingTheSchemaTable() throws {
        let database = try Database(path: ":memory:", options: .init(isDefensive: true))
        try database.execute("CREATE TABLE t(a)")
        #expect(throws: SQLiteError.self) { try database.execute("PRAGMA writable_schema = ON; DELETE FROM sqlite_schema") }
        #expect(try database.scalar("SELECT count(*) FROM sqlite_schema") == .integer(1))
    }
}
