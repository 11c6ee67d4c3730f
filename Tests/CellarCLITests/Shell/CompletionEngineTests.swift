import Testing

@testable import CellarCLI

@Suite struct CompletionEngineTests {
    let engine = CompletionEngine(
        schema: SchemaSnapshot(tables: [
            "wine": ["id", "name", "rating", "winery_id"],
            "winery": ["id", "name", "region"],
            "Label Art": ["wine_id", "image"],
        ]),
        listDirectory: { directory in
            switch directory {
            case "":
                [
                    .init(name: "seed.sql", isDirectory: false), .init(name: "seeds", isDirectory: true),
                    .init(name: ".hidden", isDirectory: false),
                ]
            case "seeds/": [.init(name: "01_wineries.sql", isDirectory: false)]
            default: []
            }
        })

    private func complete(_ text: String, pending: String = "") -> [String] {
        engine.candidates(line: text, cursor: text.utf8.count, pending: pending)
    }

    @Test(arguments: [
        ("SEL", ["SELECT"]),
        ("sel", ["select"]),
        ("SELECT * FROM wi", ["wine", "winery"]),
        ("SELECT * FROM wine JOIN winery_", []),
        ("INSERT INTO win", ["wine", "winery"]),
        ("SELECT rat", ["rating"]),
        ("SELECT * FROM wine WHERE rat", ["rating"]),
        ("SELECT * FROM wine WHERE RAT", ["rating"]),
    ])
    func keywordsTablesAndColumnsOfNamedTables(text: String, expected: [String]) {
        #expect(complete(text) == expected)
    }

    @Test(arguments: [
        ("SELECT regi", ["region"]),
        ("SELECT nam", ["name"]),
        ("SELECT IMA", ["image"]),
        ("SELECT id, rat", ["rating"]),
        ("SELECT im, 'wine' AS w, rat", ["rating"]),
    ])
    func beforeATableIsNamedTheColumnsOfEveryTable(text: String, expected: [String]) {
        #expect(complete(text) == expected)
    }

    @Test func onceATableIsNamedOnlyItsColumns() {
        #expect(engine.candidates(line: "SELECT regi FROM wine", cursor: "SELECT regi".utf8.count).isEmpty)
        #expect(engine.candidates(line: "SELECT regi FROM winery", cursor: "SELECT regi".utf8.count) == ["region"])
    }

    @Test(arguments: [
        "SELECT 'wi", "SELECT * FROM wine WHERE name = 'Ra", "SELECT \"wi", "SELECT `wi", "SELECT [wi",
        "SELECT 1 -- wi", "SELECT /* wi", "SELECT /* a */ 1, /* wi", "SELECT x'0a",
    ])
    func nothingInsideAStringAQuotedNameOrAComment(text: String) {
        #expect(complete(text).isEmpty)
    }

    @Test func nothingInsideAStringOpenedOnAnEarlierLine() {
        #expect(complete("wi", pending: "SELECT 'a note").isEmpty)
        #expect(complete("wi", pending: "SELECT 1 /* a note").isEmpty)
        #expect(complete("SELECT wi", pending: "-- a comment") == complete("SELECT wi"))
    }

    @Test func afterAClosedStringOrCommentCompletionResumes() {
        #expect(complete("SELECT 'it''s', /* x */ regi") == ["region"])
        #expect(complete("SELECT 1 FROM \"Label Art\" WHERE ima") == ["image"])
    }

    @Test func columnsAfterAnAliasDefinedLaterInTheLine() {
        let line = "SELECT w. FROM wine w"
        let cursor = "SELECT w.".utf8.count
        #expect(engine.candidates(line: line, cursor: cursor) == ["w.id", "w.name", "w.rating", "w.winery_id"])
        let prefixed = "SELECT w.na FROM wine AS w"
        #expect(engine.candidates(line: prefixed, cursor: "SELECT w.na".utf8.count) == ["w.name"])
    }

    @Test func columnsOfAQualifyingTableAndOfAnAliasOnAnEarlierLine() {
        #expect(complete("SELECT winery.re") == ["winery.region"])
        #expect(complete("WHERE y.reg", pending: "SELECT *\nFROM wine JOIN winery y ON y.id = wine.winery_id") == ["y.region"])
    }

    @Test func quotedTableNamesAreRecognised() {
        #expect(complete("SELECT * FROM \"Label Art\" AS l WHERE l.im") == ["l.image"])
    }

    @Test func keywordsAreNotTakenForAliases() {
        let aliases = CompletionEngine.aliases(in: "SELECT * FROM wine WHERE id = 1", schema: engine.schema)
        #expect(aliases.isEmpty)
        #expect(CompletionEngine.aliases(in: "FROM wine w, winery AS y", schema: engine.schema) == ["w": "wine", "y": "winery"])
    }

    @Test(arguments: [
        (".sch", [".schema"]),
        (".m", [".maxrows", ".migration", ".migrations", ".mode"]),
        (".zz", []),
    ])
    func dotCommandNames(text: String, expected: [String]) {
        #expect(complete(text) == expected)
    }

    @Test func dotCommandsAreNotOfferedInsideAStatement() {
        #expect(complete(".sch", pending: "SELECT 1,").isEmpty)
    }

    @Test(arguments: [
        (".read s", ["seed.sql", "seeds/"]),
        (".open seeds/0", ["seeds/01_wineries.sql"]),
        (".output .h", [".hidden"]),
        (".read ", ["seed.sql", "seeds/"]),
        (".read 'see", ["seed.sql", "seeds/"]),
        (".open \"seeds/", ["seeds/01_wineries.sql"]),
    ])
    func filePathsAfterFileCommands(text: String, expected: [String]) {
        #expect(complete(text) == expected)
    }

    @Test func argumentsOfDotCommands() {
        #expect(complete(".schema win") == ["wine", "winery"])
        #expect(complete(".mode j") == ["json", "jsonl"])
        #expect(complete(".headers o") == ["on", "off"])
        #expect(complete(".timer of") == ["off"])
        #expect(complete(".eqp o") == ["on", "off"])
        #expect(complete(".stats of") == ["off"])
        #expect(complete(".dump wi") == ["wine", "winery"])
        #expect(complete(".nullvalue n").isEmpty)
    }
}
