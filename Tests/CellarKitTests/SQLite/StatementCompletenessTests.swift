import CellarKit
import Testing

/// `Database.isComplete` decides when the shell runs what was typed.
@Suite struct StatementCompletenessTests {
    @Test(arguments: [
        ("SELECT 1;", true),
        ("SELECT 1", false),
        ("SELECT 'a;b'", false),
        ("SELECT 1; -- done", true),
        ("CREATE TRIGGER t AFTER INSERT ON w BEGIN SELECT 1;", false),
        ("CREATE TRIGGER t AFTER INSERT ON w BEGIN SELECT 1; END;", true),
    ])
    func completeWhenSQLiteSaysSo(sql: String, isComplete: Bool) {
        #expect(Database.isComplete(sql) == isComplete)
    }
}
