import CellarKit
import Testing

@testable import CellarDqlite

/// A remote connection follows its transaction from the statements that ran, as SQLite's authorizer
/// names them; a local SQLite
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
            let facts = try local.facts(of: statement)
            try local.execute(statement)
            state.didRun(facts)
            #expect(state.isOpen == !(try local.isAutocommit), "after \(statement) in \(statements)")
        }
    }

    @Test func endForgetsTheSavepoints() throws {
        let local = try Database(path: ":memory:")
        var state = TransactionState()
        state.didRun(try local.facts(of: "SAVEPOINT a"))
        state.end()
        #expect(!state.isOpen)
        state.didRun(try local.facts(of: "BEGIN"))
        state.didRun(try local.facts(of: "RELEASE a"))
        #expect(state.isOpen)
    }
}
