import CellarKit
import Testing

@testable import CellarDqlite

/// A remote connection follows its transaction from the statements that ran; a local SQLite
/// connection running the same statements (`sqlite3_get_autocommit`) is the reference.
struct TransactionStateTests {
    @Test(arguments: [
        ["BEGIN", "SAVEPOINT a", "RELEASE a", "COMMIT"],
        ["SAVEPOINT a", "SAVEPOINT b", "RELEASE b", "RELEASE a"],
        ["SAVEPOINT a", "SAVEPOINT b", "RELEASE SAVEPOINT A"],
        ["savepoint \"Outer One\"", "savepoint inner2", "rollback transaction to savepoint inner2", "release [outer one]"],
        ["SAVEPOINT a", "ROLLBACK TO a", "RELEASE a"],
        ["SAVEPOINT a", "SAVEPOINT b", "ROLLBACK TO a", "RELEASE a"],
        ["SAVEPOINT a", "SAVEPOINT a", "RELEASE a", "RELEASE a"],
        ["SAVEPOINT a", "ROLLBACK"],
        ["BEGIN IMMEDIATE", "SAVEPOINT x", "RELEASE x", "END"],
        ["/* c */ SAVEPOINT `s p`", "-- note\nRELEASE `s p`"],
        ["SAVEPOINT a", "COMMIT", "SAVEPOINT b", "ROLLBACK TRANSACTION"],
    ])
    func followsTheTransactionAsSQLiteDoes(statements: [String]) throws {
        let local = try Database(path: ":memory:")
        var state = TransactionState()
        for statement in statements {
            try local.execute(statement)
            state.didRun(statement)
            #expect(state.isOpen == !(try local.isAutocommit), "after \(statement) in \(statements)")
        }
    }

    @Test func endForgetsTheSavepoints() {
        var state = TransactionState()
        state.didRun("SAVEPOINT a")
        state.end()
        #expect(!state.isOpen)
        state.didRun("BEGIN")
        state.didRun("RELEASE a")
        #expect(state.isOpen)
    }

    @Test func tokensAreReadPastCommentsWithQuotesRemoved() {
        let quoted = TransactionControl.leadingTokens(of: "-- x\n/* y */ RELEASE \"a \"\"b\"\"\" ;", count: 5)
        #expect(quoted == ["RELEASE", "a \"b\""])
        #expect(TransactionControl.leadingTokens(of: "SAVEPOINT [x y]", count: 2) == ["SAVEPOINT", "x y"])
        #expect(TransactionControl.leadingTokens(of: "savepoint sp_1$ junk", count: 2) == ["savepoint", "sp_1$"])
        #expect(TransactionControl.leadingWords(of: "rollback /* to */ to sp1;", count: 3) == ["ROLLBACK", "TO", "SP1"])
    }
}
