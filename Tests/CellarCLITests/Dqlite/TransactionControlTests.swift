import Testing

@testable import CellarDqlite

/// Transaction control is recognised by a statement's own words before it is sent to a server, as
/// SQLite's authorizer names it (`SQLITE_TRANSACTION`) on a file.
struct TransactionControlTests {
    @Test(
        arguments: [
            ("BEGIN", "BEGIN"), ("begin immediate transaction;", "BEGIN"), ("END", "COMMIT"),
            ("COMMIT TRANSACTION", "COMMIT"), ("ROLLBACK", "ROLLBACK"), ("/* why */ rollback;", "ROLLBACK"),
            ("ROLLBACK TO sp1", nil), ("ROLLBACK TRANSACTION TO SAVEPOINT x", nil), ("SAVEPOINT a", nil),
            ("RELEASE a", nil), ("SELECT 1", nil), ("-- BEGIN\nSELECT 1", nil), ("BEGINNING", nil),
        ] as [(String, String?)])
    func operationsAreNamedAsTheAuthorizerNamesThem(statement: String, operation: String?) {
        #expect(TransactionControl.operation(of: statement) == operation, "\(statement)")
    }
}
