import CellarKit
import Glibc
import Synchronization
import TestSupport
import Testing

@Suite struct StatementLifecycleTests {
    @Test func everyStatementIsFinalizedAfterExecuteQueryAndErrors() throws {
        let database = try WinerySchema.makeDatabase()
        try database.execute("INSERT INTO wineries (name) VALUES ('a'); INSERT INTO wineries (name) VALUES ('b')")
        _ = try database.query("SELECT * FROM wineries; SELECT count(*) FROM wine")
        #expect(throws: SQLiteError.self) { try database.execute("SELECT 1; SELECT * FROM missing") }
        #expect(throws: SQLiteError.self) { try database.execute("INSERT INTO wineries (name) VALUES ('a')") }
        #expect(try database.liveStatementCount == 0)
        try database.close()
    }

    @Test func closeRefusesWhileAStatementIsAliveAndSucceedsAfter() throws {
        let database = try Database(path: ":memory:")
        var statement: Statement? = try database.prepare("SELECT 1")
        #expect(try database.liveStatementCount == 1)
        let error = #expect(throws: SQLiteError.self) { try database.close() }
        #expect(error?.resultCode == .busy)
        statement = nil
        #expect(statement == nil)
        #expect(try database.liveStatementCount == 0)
        try database.close()
        #expect(throws: SQLiteError.self) { try database.execute("SELECT 1") }
    }

    @Test func cursorSkipsEmptyStatementsAndTrailingComments() throws {
        let database = try Database(path: ":memory:")
        let script = ";;\n-- lead\nSELECT 1; ; /* mid */ SELECT 'a;b'; -- tail"
        var texts: [String] = []
        try database.withStatements(in: script) { cursor in
            while let prepared = try cursor.next() {
                texts.append(cursor.text(of: prepared))
            }
        }
        #expect(texts == ["SELECT 1;", "SELECT 'a;b';"])
    }

    @Test func triggerBodyIsOneStatement() throws {
        let database = try Database(path: ":memory:")
        let script = """
            CREATE TABLE t(a); CREATE TABLE log(a);
            CREATE TRIGGER g AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a); SELECT 1; END;
            INSERT INTO t VALUES (5);
            """
        var count = 0
        try database.withStatements(in: script) { cursor in
            while let prepared = try cursor.next() {
                try cursor.run(prepared)
                count += 1
            }
        }
        #expect(count == 4)
        #expect(try database.scalar("SELECT a FROM log") == .integer(5))
    }

    @Test func transactionCommitsOnReturnAndRollsBackOnThrow() throws {
        struct Abort: Error {}
        let database = try WinerySchema.makeDatabase()
        try database.transaction(.immediate) { try database.execute("INSERT INTO wineries (name) VALUES ('kept')") }
        #expect(throws: Abort.self) {
            try database.transaction {
                try database.execute("INSERT INTO wineries (name) VALUES ('lost')")
                throw Abort()
            }
        }
        #expect(try database.isAutocommit)
        #expect(try database.query("SELECT name FROM wineries").map(\.values) == [[.text("kept")]])
    }

    /// The other thread interrupts once the query says it is running, and the query is finite: an
    /// interrupt that is lost makes the test fail when the count ends, never hang.
    @Test func interruptFromAnotherThreadStopsALongQuery() throws {
        let database = try Database(path: ":memory:")
        let running = Flag()
        try database.createFunction("running", argumentCount: 0) { _ in
            running.raise()
            return .integer(1)
        }
        let interrupter = database.interrupter
        let thread = BackgroundThread {
            if (try? Poll.until("the query to run", timeout: 60) { running.isRaised }) != nil { interrupter.interrupt() }
        }
        thread.start()
        let error = #expect(throws: SQLiteError.self) {
            try database.execute(
                "WITH RECURSIVE c(x) AS (SELECT running() UNION ALL SELECT x + 1 FROM c WHERE x < 200000000) SELECT count(*) FROM c"
            )
        }
        thread.join()
        #expect(running.isRaised)
        #expect(error?.isInterrupt == true)
        #expect(try database.scalar("SELECT 42") == .integer(42))
    }

    @Test func openFailureReportsTheReason() throws {
        let error = #expect(throws: SQLiteError.self) {
            _ = try Database(path: "/nonexistent-folder/x.db", options: .init(mode: .readWrite))
        }
        #expect(error?.resultCode == .cantOpen)
    }

    @Test func extensionLoadingIsOff() throws {
        let database = try Database(path: ":memory:")
        let error = #expect(throws: SQLiteError.self) { try database.execute("SELECT load_extension('x')") }
        #expect(error?.message == "not authorized")
    }
}

/// A flag one thread raises and another reads.
private final class Flag: Sendable {
    private let value = Atomic(false)

    var isRaised: Bool { value.load(ordering: .acquiring) }

    func raise() { value.store(true, ordering: .releasing) }
}
