import CellarKit
import Testing

@Suite struct MigrationParserTests {
    private func parse(_ text: String, name: String = "0001_test.sql") throws -> Migration {
        try MigrationParser.parse(Array(text.utf8), fileName: name, path: "m/\(name)")
    }

    private func diagnostic(of text: String) -> Diagnostic? {
        diagnostic(ofBytes: Array(text.utf8))
    }

    private func diagnostic(ofBytes bytes: [UInt8]) -> Diagnostic? {
        do {
            _ = try MigrationParser.parse(bytes, fileName: "0001_test.sql", path: "m/0001_test.sql")
            return nil
        } catch {
            return error.diagnostic
        }
    }

    @Test(arguments: [
        ("0001_create_wineries.sql", 1, "0001", "create_wineries"),
        ("3_b.sql", 3, "3", "b"),
        ("20261129120000_add-vintage.sql", 20_261_129_120_000, "20261129120000", "add-vintage"),
        ("0010_a_b_c.sql", 10, "0010", "a_b_c"),
    ])
    func fileNamesThatFit(fileName: String, version: Int64, versionText: String, name: String) throws {
        let parsed = try #require(MigrationParser.parseFileName(fileName))
        #expect(parsed.version == version)
        #expect(parsed.versionText == versionText)
        #expect(parsed.name == name)
    }

    @Test(arguments: [
        "create.sql", "0001.sql", "0001_.sql", "_x.sql", "0000_zero.sql", "0001_bad name.sql", "0001_caf\u{E9}.sql",
        "v1_x.sql", "0001_x.SQL", "99999999999999999999_big.sql",
    ])
    func fileNamesThatDoNotFit(fileName: String) {
        #expect(MigrationParser.parseFileName(fileName) == nil)
    }

    @Test func fileWithoutMarkersIsAllUp() throws {
        let migration = try parse("CREATE TABLE t (x);\n")
        #expect(migration.up.sql == "CREATE TABLE t (x);\n")
        #expect(migration.up.isTransactional)
        #expect(migration.down == nil)
        #expect(!migration.canRollBack)
        #expect(migration.checksum == SHA256.hexDigest(of: Array("CREATE TABLE t (x);".utf8)))
    }

    @Test func sectionsExcludeTheirMarkerLines() throws {
        let migration = try parse("-- comment\n-- migrate:up\nCREATE TABLE t (x);\n\n-- migrate:down\nDROP TABLE t;\n")
        #expect(migration.up.sql == "CREATE TABLE t (x);\n\n")
        #expect(migration.down?.sql == "DROP TABLE t;\n")
        #expect(migration.canRollBack)
        #expect(migration.up.startOffset == Array("-- comment\n-- migrate:up\n".utf8).count)
    }

    @Test func transactionFalseOptionIsRead() throws {
        let migration = try parse("-- migrate:up transaction:false\nVACUUM;\n-- migrate:down transaction:false\nVACUUM;\n")
        #expect(!migration.up.isTransactional)
        #expect(migration.down?.isTransactional == false)
    }

    @Test func checksumIgnoresCRLFTrailingWhitespaceAndTheDownSection() throws {
        let plain = try parse("-- migrate:up\nCREATE TABLE t (x);\nINSERT INTO t VALUES (1);\n")
        let crlf = try parse("-- migrate:up\r\nCREATE TABLE t (x);\r\nINSERT INTO t VALUES (1);\r\n  \r\n")
        let withDown = try parse(
            "-- migrate:up\nCREATE TABLE t (x);\nINSERT INTO t VALUES (1);\n-- migrate:down\nDROP TABLE t;\n")
        let edited = try parse("-- migrate:up\nCREATE TABLE t (x);\nINSERT INTO t VALUES (2);\n")
        #expect(plain.checksum == crlf.checksum)
        #expect(plain.checksum == withDown.checksum)
        #expect(plain.checksum != edited.checksum)
        #expect(plain.checksum == SHA256.hexDigest(of: Array("CREATE TABLE t (x);\nINSERT INTO t VALUES (1);".utf8)))
    }

    @Test(arguments: ["", "   \n", "\r\n\t \n"])
    func fileWithNoSQLAndNoCommentIsAnError(text: String) {
        let found = diagnostic(of: text)
        #expect(found?.message == "empty file: no SQL and no comment")
        #expect(found?.path == "m/0001_test.sql")
    }

    @Test(arguments: [
        "-- migrate:up\n-- This file should undo anything in `up.sql`\n\n-- migrate:down\nDROP TABLE t;\n", ";\n;", "/* x */",
        "-- placeholder left after a squash\n", "-- migrate:up\n-- migrate:down\n",
    ])
    func upSectionOfCommentsOnlyIsANoOpMigration(text: String) throws {
        let migration = try parse(text)
        #expect(migration.isEmpty)
        #expect(!migration.isUnwritten)
    }

    @Test func emptyDownSectionCanBeRolledBack() throws {
        let migration = try parse("-- migrate:up\nCREATE TABLE t (x);\n-- migrate:down\n-- nothing to undo\n")
        #expect(migration.canRollBack)
        #expect(migration.down?.hasStatements == false)
    }

    @Test(arguments: [MigrationTemplate.text, MigrationTemplate.text.replacing("\n", with: "\r\n")])
    func theUntouchedTemplateIsUnwritten(text: String) throws {
        let migration = try parse(text)
        #expect(migration.isUnwritten)
        let written = try parse(
            text.replacing("applies this migration here.", with: "applies this migration here.\nCREATE TABLE t (x);"))
        #expect(!written.isUnwritten)
        #expect(!written.isEmpty)
    }

    @Test func utf8ByteOrderMarkIsSkipped() throws {
        let migration = try MigrationParser.parse(
            [0xEF, 0xBB, 0xBF] + Array("SELECT 1;".utf8), fileName: "1_a.sql", path: "1_a.sql")
        #expect(migration.text == "SELECT 1;")
    }

    @Test(arguments: [[UInt8]([0xFF, 0xFE, 0x53, 0x00]), [0xFE, 0xFF, 0x00, 0x53], [0x53, 0x00, 0x45, 0x00]])
    func utf16IsAnError(bytes: [UInt8]) {
        let found = diagnostic(ofBytes: bytes)
        #expect(found?.message.contains("UTF-16") == true)
    }

    @Test(arguments: [
        ([UInt8]("SELECT 1;\nSELECT 'ab".utf8) + [0xFF] + Array("';\n".utf8), 2, 11, "ff"),
        (Array("SELECT '\u{E9}t\u{E9}".utf8) + [0xC3, 0x28], 1, 12, "c3"),
        (Array("-- migrate:up\nSELECT 1;\n\n  ".utf8) + [0xED, 0xA0, 0x80], 4, 3, "ed"),
    ])
    func invalidUTF8NamesLineAndColumnOfTheFirstBadByte(bytes: [UInt8], line: Int, column: Int, hex: String) {
        let found = diagnostic(ofBytes: bytes)
        #expect(found?.location == SourceLocation(line: line, column: column))
        #expect(found?.message == "invalid UTF-8 (byte 0x\(hex))")
    }

    @Test(arguments: [
        ("-- migrate:up transaction:maybe\nSELECT 1;\n", 1, "unknown option 'transaction:maybe'"),
        ("-- migrate:down\nDROP TABLE t;\n", 1, "'-- migrate:down' without '-- migrate:up'"),
        ("-- migrate:up\nSELECT 1;\n-- migrate:up\nSELECT 2;\n", 3, "a second up marker"),
        ("CREATE TABLE t (x);\n-- migrate:up\nSELECT 1;\n", 1, "SQL before '-- migrate:up' would never run"),
        ("-- migrate:down\nSELECT 1;\n-- migrate:up\nSELECT 2;\n", 1, "'-- migrate:down' before '-- migrate:up'"),
    ])
    func misplacedMarkersAreLocatedErrors(text: String, line: Int, message: String) {
        let found = diagnostic(of: text)
        #expect(found?.location?.line == line)
        #expect(found?.message.hasPrefix(message) == true, "\(String(describing: found))")
    }

    @Test func badFileNameIsReportedWithThePath() {
        do {
            _ = try MigrationParser.parse(Array("SELECT 1;".utf8), fileName: "create.sql", path: "m/create.sql")
            Issue.record("a bad file name was accepted")
        } catch {
            #expect(error.diagnostic?.path == "m/create.sql")
            #expect(error.diagnostic?.location == nil)
            #expect(error.diagnostic?.message.hasPrefix("file name does not fit <version>_<name>.sql") == true)
        }
    }
}
