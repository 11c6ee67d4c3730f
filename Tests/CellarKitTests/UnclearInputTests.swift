import CellarKit
import TestSupport
import Testing

/// Issue 15 M7: a version of 0 or beyond Int64, and a file with CR-only line ends, are reported as what
/// they are, located, instead of as a bad file name or an unknown option.
@Suite struct UnclearInputTests {
    @Test(arguments: [
        ("0_a.sql", "version 0 is not a migration version: versions start at 1"),
        ("0000_a.sql", "version 0000 is not a migration version: versions start at 1"),
        (
            "9223372036854775808_a.sql",
            "version 9223372036854775808 is too large: the largest is 9223372036854775807"
        ),
        (
            "99999999999999999999_a.sql",
            "version 99999999999999999999 is too large: the largest is 9223372036854775807"
        ),
    ])
    func aVersionOutOfRangeSaysSo(fileName: String, message: String) throws {
        let error = #expect(throws: MigrationError.self) {
            try MigrationParser.parse(Array("CREATE TABLE a (x);\n".utf8), fileName: fileName, path: "m/\(fileName)")
        }
        #expect(error?.diagnostic?.message == message)
        #expect(error?.diagnostic?.path == "m/\(fileName)")
    }

    @Test func theLargestVersionIsAccepted() throws {
        let migration = try MigrationParser.parse(
            Array("CREATE TABLE a (x);\n".utf8), fileName: "9223372036854775807_a.sql", path: "m/x.sql")
        #expect(migration.version == Int64.max)
    }

    @Test(arguments: [
        ("-- migrate:up\rCREATE TABLE a (x);\r-- migrate:down\rDROP TABLE a;\r", 14),
        ("CREATE TABLE a (x); -- first\rCREATE TABLE b (x);\r", 29),
    ])
    func crOnlyLineEndsAreAnErrorAtTheFirstCR(text: String, column: Int) throws {
        let error = #expect(throws: MigrationError.self) {
            try MigrationParser.parse(Array(text.utf8), fileName: "1_a.sql", path: "m/1_a.sql")
        }
        let diagnostic = try #require(error?.diagnostic)
        #expect(diagnostic.location == SourceLocation(line: 1, column: column))
        #expect(diagnostic.message.hasPrefix("line ends are CR only"), "\(diagnostic.message)")
    }

    @Test(arguments: [
        "CREATE TABLE a (x);\r\nCREATE TABLE b (x);\r\n", "CREATE TABLE a (x);\nINSERT INTO a VALUES ('x\ry');\n",
    ])
    func crlfAndACRInsideALineAreFine(text: String) throws {
        let migration = try MigrationParser.parse(Array(text.utf8), fileName: "1_a.sql", path: "m/1_a.sql")
        #expect(migration.version == 1)
    }
}
