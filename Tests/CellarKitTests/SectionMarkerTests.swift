import CellarKit
import Testing

/// Markers are read strictly (SPEC "First contact"): dbmate's, goose's and sql-migrate's sections are
/// read, and a comment that looks like a marker but is none is an error at its line, so a down section
/// never runs as part of an up.
@Suite struct SectionMarkerTests {
    private func parse(_ text: String) throws -> Migration {
        try MigrationParser.parse(Array(text.utf8), fileName: "0001_test.sql", path: "m/0001_test.sql")
    }

    private func diagnostic(of text: String) -> Diagnostic? {
        do {
            _ = try MigrationParser.parse(Array(text.utf8), fileName: "0001_test.sql", path: "m/0001_test.sql")
            return nil
        } catch {
            return error.diagnostic
        }
    }

    /// The byte-for-byte reading of dbmate's usual marker lines gives what the full reading gives, and
    /// leaves every other spelling to it.
    @Test func theUsualDbmateLinesReadAsTheFullReadingReadsThem() {
        for line in ["-- migrate:up", "-- migrate:down", "-- migrate:up transaction:false", "-- migrate:down transaction:false"] {
            for ending in ["", "\r"] {
                let marker = SectionMarker.readCommon(ArraySlice((line + ending).utf8))
                #expect(marker != nil, "\(line)")
                let full = SectionMarker.read(Substring(line + ending))
                #expect(marker.map { SectionMarker.Reading.marker($0) } == full, "\(line)")
            }
        }
        for line in [
            " -- migrate:up", "-- migrate:up ", "--  migrate:up", "-- migrate:up  transaction:false", "-- migrate:Up",
            "-- migrate:upx", "-- migrate:up transaction:true", "-- migrate:up\r\r", "-- migrate:up\ttransaction:false",
            "-- +goose Up", "-- migrate:", "--",
        ] {
            #expect(SectionMarker.readCommon(ArraySlice(line.utf8)) == nil, "\(line)")
        }
    }

    @Test func gooseSectionsAsGoosesDocsWriteThem() throws {
        let migration = try parse(
            """
            -- +goose Up
            -- +goose StatementBegin
            CREATE TABLE post (id INTEGER PRIMARY KEY, title TEXT);
            -- +goose StatementEnd

            -- +goose Down
            -- +goose StatementBegin
            DROP TABLE post;
            -- +goose StatementEnd

            """)
        #expect(migration.up.sql.contains("CREATE TABLE post"))
        #expect(!migration.up.sql.contains("DROP TABLE"))
        #expect(migration.down?.sql.contains("DROP TABLE post;") == true)
        #expect(migration.up.isTransactional)
        #expect(migration.down?.isTransactional == true)
    }

    @Test func goosesNoTransactionTurnsBothSectionsNonTransactional() throws {
        let migration = try parse("-- +goose NO TRANSACTION\n-- +goose Up\nVACUUM;\n-- +goose Down\nVACUUM;\n")
        #expect(!migration.up.isTransactional)
        #expect(migration.down?.isTransactional == false)
        #expect(migration.up.sql == "VACUUM;\n")
    }

    @Test func sqlMigrateSectionsAndNotransaction() throws {
        let migration = try parse(
            "-- +migrate Up notransaction\nCREATE INDEX i ON t (x);\n\n-- +migrate Down\nDROP INDEX i;\n")
        #expect(migration.up.sql == "CREATE INDEX i ON t (x);\n\n")
        #expect(!migration.up.isTransactional)
        #expect(migration.down?.sql == "DROP INDEX i;\n")
        #expect(migration.down?.isTransactional == true)
    }

    /// The up section of a dbmate-style file, and so its checksum, is what it was before goose's and
    /// sql-migrate's markers were read: a ledger written earlier still matches.
    @Test func dbmateChecksumsAreUnchanged() throws {
        let migration = try parse("-- migrate:up\nCREATE TABLE t (x);\n-- a comment\n\n-- migrate:down\nDROP TABLE t;\n")
        #expect(migration.checksum == SHA256.hexDigest(of: Array("CREATE TABLE t (x);\n-- a comment".utf8)))
        let unspaced = try parse("--migrate:up\nCREATE TABLE t (x);\n--\tmigrate:down  transaction:false\nDROP TABLE t;\n")
        #expect(unspaced.up.sql == "CREATE TABLE t (x);\n")
        #expect(unspaced.down?.isTransactional == false)
    }

    @Test(arguments: [
        // The forms, then the SPEC's, then more of each kind.
        ("-- migrate: up", "-- migrate:up"),
        ("-- migrate: down", "-- migrate:down"),
        ("-- migrate:Down", "-- migrate:down"),
        ("-- migration:down", "-- migrate:down"),
        ("-- +goose down", "-- +goose Down"),
        ("-- +goose up", "-- +goose Up"),
        ("-- +goose DOWN", "-- +goose Down"),
        ("-- +Goose Down", "-- +goose Down"),
        ("--+goose Down", "-- +goose Down"),
        ("-- + goose Down", "-- +goose Down"),
        ("-- +gose Down", "-- +goose Down"),
        ("-- goose down", "-- +goose Down"),
        ("-- +migrate down", "-- +migrate Down"),
        ("-- +Migrate Down", "-- +migrate Down"),
        ("-- migrate:DOWN", "-- migrate:down"),
        ("-- Migrate:down", "-- migrate:down"),
        ("-- migrate :down", "-- migrate:down"),
        ("-- migrate_down", "-- migrate:down"),
        ("-- migrate-down", "-- migrate:down"),
        ("-- migratedown", "-- migrate:down"),
        ("-- migrate:down;", "-- migrate:down"),
        ("--- migrate:down", "-- migrate:down"),
        ("-- migrat:down", "-- migrate:down"),
        ("-- migrte:down", "-- migrate:down"),
        ("-- migrate:dwon", "-- migrate:down"),
        ("-- migrations:down", "-- migrate:down"),
        ("-- migrate down", "-- migrate:down"),
        ("-- Down", "-- migrate:down"),
        ("-- down:", "-- migrate:down"),
        ("-- Down migration", "-- migrate:down"),
        ("  -- migrate:down", "a marker starts at the beginning of its line"),
        ("\t-- +goose Down", "a marker starts at the beginning of its line"),
    ])
    func nearMissesAreErrorsAtTheirLine(line: String, advice: String) {
        let text = "-- migrate:up\nCREATE TABLE t (x);\n\n\(line)\nDROP TABLE t;\n"
        let found = diagnostic(of: text)
        #expect(found?.path == "m/0001_test.sql")
        let column = line.prefix(while: { $0 == " " || $0 == "\t" }).count + 1
        #expect(found?.location == SourceLocation(line: 4, column: column), "\(line): \(String(describing: found))")
        #expect(found?.message.contains("looks like a section marker but is none") == true, "\(line)")
        #expect(found?.message.contains(advice) == true, "\(line): \(String(describing: found?.message))")
    }

    /// Without any real marker, a near miss used to make the whole file the up section: the table was
    /// created and dropped by one migration.
    @Test(arguments: ["-- migrate: up", "-- migrate:Up", "-- +goose Up\n", "-- +goose up"])
    func aFileWhoseOnlyMarkersAreNearMissesIsRefused(up: String) {
        let text = "\(up)\nCREATE TABLE t (x);\n-- migrate: down\nDROP TABLE t;\n"
        #expect(diagnostic(of: text)?.location?.line == (up.hasSuffix("\n") ? 4 : 1))
    }

    @Test(arguments: [
        ("-- +goose ENVSUB ON", "ENVSUB"),
        ("-- +goose NO TRANSACTIONS", "-- +goose is followed by Up, Down, NO TRANSACTION"),
        ("-- +migrate Up notransactions", "unknown option 'notransactions'"),
        ("-- +goose", "goose's markers are spelt '-- +goose Up' and '-- +goose Down'"),
    ])
    func unknownAnnotationsAreErrors(line: String, message: String) {
        let found = diagnostic(of: "\(line)\nSELECT 1;\n")
        #expect(found?.location == SourceLocation(line: 1, column: 1))
        #expect(found?.message.contains(message) == true, "\(String(describing: found?.message))")
    }

    @Test(arguments: [
        "-- Migrate the users table to the new shape", "-- goose is another tool", "-- upgrade the prices",
        "-- downloads are counted here", "-- the migration adds a column", "-- +1 for this index", "-- set up the view",
        "-- town", "-- migrate:", "--",
    ])
    func ordinaryCommentsStayComments(comment: String) throws {
        let migration = try parse("-- migrate:up\n\(comment)\nCREATE TABLE t (x);\n-- migrate:down\nDROP TABLE t;\n")
        #expect(migration.up.sql.hasPrefix(comment))
    }

    @Test func oneFileUsesOneToolsMarkers() {
        let found = diagnostic(of: "-- migrate:up\nCREATE TABLE t (x);\n-- +goose Down\nDROP TABLE t;\n")
        #expect(found?.location?.line == 3)
        #expect(found?.message == "a goose marker in a file that uses dbmate's (line 1): use one tool's markers")
    }

    @Test(arguments: [
        ("-- +goose Down\nDROP TABLE t;\n", "'-- +goose Down' without '-- +goose Up'"),
        ("-- +migrate Down\nSELECT 1;\n-- +migrate Up\nSELECT 2;\n", "'-- +migrate Down' before '-- +migrate Up'"),
        ("CREATE TABLE t (x);\n-- +goose Up\nSELECT 1;\n", "SQL before '-- +goose Up' would never run"),
    ])
    func misplacedMarkersNameTheirTool(text: String, message: String) {
        #expect(diagnostic(of: text)?.message == message)
    }
}
