import CellarKit
import Testing

/// Every mode on one fixture table, compared byte for byte. Where sqlite3 3.40.1 has the mode the
/// output matches it, except where SPEC differs: blobs (described in human modes, hex/base64/X'' in
/// machine modes), escaped control characters in human modes, right-aligned numbers, lossless reals,
/// CRLF in csv, and tsv/jsonl, which sqlite3 lacks.
@Suite struct RenderingGoldenTests {
    static let goldens: [(OutputMode, [String])] = [
        (
            .box,
            [
                "┌────┬───────┬─────────────────┬────────────────────┐",
                "│ id │ price │      name       │        data        │",
                "├────┼───────┼─────────────────┼────────────────────┤",
                "│  1 │  42.0 │ 日本語          │ <blob 0 B>         │",
                "│ -7 │   0.3 │ café            │ <blob 10 B>        │",
                "│  3 │   1.5 │ 🍷 wine         │ <PNG 4×2, 78 B>    │",
                "│    │       │ a\\nb\\tc\\x1b[31m │ <JPEG 16×8, 141 B> │",
                "│  5 │  -2.5 │                 │                    │",
                "└────┴───────┴─────────────────┴────────────────────┘",
            ]
        ),
        (
            .table,
            [
                "+----+-------+-----------------+--------------------+",
                "| id | price |      name       |        data        |",
                "+----+-------+-----------------+--------------------+",
                "|  1 |  42.0 | 日本語          | <blob 0 B>         |",
                "| -7 |   0.3 | café            | <blob 10 B>        |",
                "|  3 |   1.5 | 🍷 wine         | <PNG 4×2, 78 B>    |",
                "|    |       | a\\nb\\tc\\x1b[31m | <JPEG 16×8, 141 B> |",
                "|  5 |  -2.5 |                 |                    |",
                "+----+-------+-----------------+--------------------+",
            ]
        ),
        (
            .markdown,
            [
                "| id | price |      name       |        data        |",
                "|----|-------|-----------------|--------------------|",
                "|  1 |  42.0 | 日本語          | <blob 0 B>         |",
                "| -7 |   0.3 | café            | <blob 10 B>        |",
                "|  3 |   1.5 | 🍷 wine         | <PNG 4×2, 78 B>    |",
                "|    |       | a\\nb\\tc\\x1b[31m | <JPEG 16×8, 141 B> |",
                "|  5 |  -2.5 |                 |                    |",
            ]
        ),
        (
            .line,
            [
                "   id = 1",
                "price = 42.0",
                " name = 日本語",
                " data = <blob 0 B>",
                "",
                "   id = -7",
                "price = 0.3",
                " name = café",
                " data = <blob 10 B>",
                "",
                "   id = 3",
                "price = 1.5",
                " name = 🍷 wine",
                " data = <PNG 4×2, 78 B>",
                "",
                "   id = ",
                "price = ",
                " name = a\\nb\\tc\\x1b[31m",
                " data = <JPEG 16×8, 141 B>",
                "",
                "   id = 5",
                "price = -2.5",
                " name = ",
                " data = ",
            ]
        ),
        (
            .list,
            [
                "1|42.0|日本語|",
                "-7|0.30000000000000004|café|00010203040506070809",
                "3|1.5|🍷 wine|89504e470d0a1a0a0000000d49484452000000040000000208000000005ac322bf00000015494441547801010a00f5ff000a141e2800323c4650051e0169add6ab310000000049454e44ae426082",
                "||a",
                "b\tc\u{1B}[31m|ffd8ffdb00430001010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101ffc0000b080008001001011100ffc40014000100000000000000000000000000000000ffc40014100100000000000000000000000000000000ffda0008010100003f000fffd9",
                "5|-2.5||",
            ]
        ),
        (
            .csv,
            [
                "1,42.0,\"日本語\",\"\"\r",
                "-7,0.30000000000000004,\"café\",00010203040506070809\r",
                "3,1.5,\"🍷 wine\",89504e470d0a1a0a0000000d49484452000000040000000208000000005ac322bf00000015494441547801010a00f5ff000a141e2800323c4650051e0169add6ab310000000049454e44ae426082\r",
                ",,\"a",
                "b\tc\u{1B}[31m\",ffd8ffdb00430001010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101ffc0000b080008001001011100ffc40014000100000000000000000000000000000000ffc40014100100000000000000000000000000000000ffda0008010100003f000fffd9\r",
                "5,-2.5,,\r",
            ]
        ),
        (
            .tsv,
            [
                "1\t42.0\t日本語\t",
                "-7\t0.30000000000000004\tcafé\t00010203040506070809",
                "3\t1.5\t🍷 wine\t89504e470d0a1a0a0000000d49484452000000040000000208000000005ac322bf00000015494441547801010a00f5ff000a141e2800323c4650051e0169add6ab310000000049454e44ae426082",
                "\t\ta\\nb\\tc\u{1B}[31m\tffd8ffdb00430001010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101ffc0000b080008001001011100ffc40014000100000000000000000000000000000000ffc40014100100000000000000000000000000000000ffda0008010100003f000fffd9",
                "5\t-2.5\t\t",
            ]
        ),
        (
            .json,
            [
                "[{\"id\":1,\"price\":42.0,\"name\":\"日本語\",\"data\":\"\"},",
                "{\"id\":-7,\"price\":0.30000000000000004,\"name\":\"café\",\"data\":\"AAECAwQFBgcICQ==\"},",
                "{\"id\":3,\"price\":1.5,\"name\":\"🍷 wine\",\"data\":\"iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAAAAABawyK/AAAAFUlEQVR4AQEKAPX/AAoUHigAMjxGUAUeAWmt1qsxAAAAAElFTkSuQmCC\"},",
                "{\"id\":null,\"price\":null,\"name\":\"a\\nb\\tc\\u001b[31m\",\"data\":\"/9j/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAAIABABAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AD//Z\"},",
                "{\"id\":5,\"price\":-2.5,\"name\":null,\"data\":null}]",
            ]
        ),
        (
            .jsonl,
            [
                "{\"id\":1,\"price\":42.0,\"name\":\"日本語\",\"data\":\"\"}",
                "{\"id\":-7,\"price\":0.30000000000000004,\"name\":\"café\",\"data\":\"AAECAwQFBgcICQ==\"}",
                "{\"id\":3,\"price\":1.5,\"name\":\"🍷 wine\",\"data\":\"iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAAAAABawyK/AAAAFUlEQVR4AQEKAPX/AAoUHigAMjxGUAUeAWmt1qsxAAAAAElFTkSuQmCC\"}",
                "{\"id\":null,\"price\":null,\"name\":\"a\\nb\\tc\\u001b[31m\",\"data\":\"/9j/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAAIABABAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AD//Z\"}",
                "{\"id\":5,\"price\":-2.5,\"name\":null,\"data\":null}",
            ]
        ),
        (
            .quote,
            [
                "1,42.0,'日本語',X''",
                "-7,0.30000000000000004,'café',X'00010203040506070809'",
                "3,1.5,'🍷 wine',X'89504e470d0a1a0a0000000d49484452000000040000000208000000005ac322bf00000015494441547801010a00f5ff000a141e2800323c4650051e0169add6ab310000000049454e44ae426082'",
                "NULL,NULL,'a",
                "b\tc\u{1B}[31m',X'ffd8ffdb00430001010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101ffc0000b080008001001011100ffc40014000100000000000000000000000000000000ffc40014100100000000000000000000000000000000ffda0008010100003f000fffd9'",
                "5,-2.5,NULL,NULL",
            ]
        ),
        (
            .insert,
            [
                "INSERT INTO \"table\" VALUES(1,42.0,'日本語',X'');",
                "INSERT INTO \"table\" VALUES(-7,0.30000000000000004,'café',X'00010203040506070809');",
                "INSERT INTO \"table\" VALUES(3,1.5,'🍷 wine',X'89504e470d0a1a0a0000000d49484452000000040000000208000000005ac322bf00000015494441547801010a00f5ff000a141e2800323c4650051e0169add6ab310000000049454e44ae426082');",
                "INSERT INTO \"table\" VALUES(NULL,NULL,replace('a\\nb\tc\u{1B}[31m','\\n',char(10)),X'ffd8ffdb00430001010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101ffc0000b080008001001011100ffc40014000100000000000000000000000000000000ffc40014100100000000000000000000000000000000ffda0008010100003f000fffd9');",
                "INSERT INTO \"table\" VALUES(5,-2.5,NULL,NULL);",
            ]
        ),
        (
            .column,
            [
                "id  price  name             data              ",
                "--  -----  ---------------  ------------------",
                "1   42.0   日本語           <blob 0 B>        ",
                "-7  0.3    café             <blob 10 B>       ",
                "3   1.5    🍷 wine          <PNG 4×2, 78 B>   ",
                "           a\\nb\\tc\\x1b[31m  <JPEG 16×8, 141 B>",
                "5   -2.5                                      ",
            ]
        ),
        (
            .html,
            [
                "<TR><TD>1</TD>",
                "<TD>42.0</TD>",
                "<TD>日本語</TD>",
                "<TD></TD>",
                "</TR>",
                "<TR><TD>-7</TD>",
                "<TD>0.3</TD>",
                "<TD>café</TD>",
                "<TD>00010203040506070809</TD>",
                "</TR>",
                "<TR><TD>3</TD>",
                "<TD>1.5</TD>",
                "<TD>🍷 wine</TD>",
                "<TD>89504e470d0a1a0a0000000d49484452000000040000000208000000005ac322bf00000015494441547801010a00f5ff000a141e2800323c4650051e0169add6ab310000000049454e44ae426082</TD>",
                "</TR>",
                "<TR><TD></TD>",
                "<TD></TD>",
                "<TD>a",
                "b\tc\u{1B}[31m</TD>",
                "<TD>ffd8ffdb00430001010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101ffc0000b080008001001011100ffc40014000100000000000000000000000000000000ffc40014100100000000000000000000000000000000ffda0008010100003f000fffd9</TD>",
                "</TR>",
                "<TR><TD>5</TD>",
                "<TD>-2.5</TD>",
                "<TD></TD>",
                "<TD></TD>",
                "</TR>",
            ]
        ),
        (
            .tcl,
            [
                "\"1\" \"42.0\" \"\\346\\227\\245\\346\\234\\254\\350\\252\\236\" \"\"",
                "\"-7\" \"0.3\" \"cafe\\314\\201\" \"00010203040506070809\"",
                "\"3\" \"1.5\" \"\\360\\237\\215\\267 wine\" \"89504e470d0a1a0a0000000d49484452000000040000000208000000005ac322bf00000015494441547801010a00f5ff000a141e2800323c4650051e0169add6ab310000000049454e44ae426082\"",
                "\"\" \"\" \"a\\nb\\tc\\033[31m\" \"ffd8ffdb00430001010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101ffc0000b080008001001011100ffc40014000100000000000000000000000000000000ffc40014100100000000000000000000000000000000ffda0008010100003f000fffd9\"",
                "\"5\" \"-2.5\" \"\" \"\"",
            ]
        ),
    ]

    @Test(arguments: goldens.map(\.0))
    func modeMatchesGolden(mode: OutputMode) throws {
        let expected = Self.goldens.first { $0.0 == mode }!.1.map { $0 + "\n" }.joined()
        let actual = try RenderFixture.render(mode)
        #expect(actual == expected, "\(mode):\n\(actual)")
    }

    @Test func everyModeHasAGolden() {
        #expect(Set(Self.goldens.map(\.0)) == Set(OutputMode.allCases).subtracting([.ascii]))
    }

    /// `ascii` has no line breaks of its own (0x1F between cells, 0x1E after rows), so its golden is
    /// one string.
    @Test func asciiMatchesGolden() throws {
        let expected =
            "1\u{1F}42.0\u{1F}日本語\u{1F}\u{1E}-7\u{1F}0.30000000000000004\u{1F}café\u{1F}00010203040506070809\u{1E}3\u{1F}1.5\u{1F}🍷 wine\u{1F}89504e470d0a1a0a0000000d49484452000000040000000208000000005ac322bf00000015494441547801010a00f5ff000a141e2800323c4650051e0169add6ab310000000049454e44ae426082\u{1E}\u{1F}\u{1F}a\u{A}b\tc\u{1B}[31m\u{1F}ffd8ffdb00430001010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101ffc0000b080008001001011100ffc40014000100000000000000000000000000000000ffc40014100100000000000000000000000000000000ffda0008010100003f000fffd9\u{1E}5\u{1F}-2.5\u{1F}\u{1F}\u{1E}"
        #expect(try RenderFixture.render(.ascii) == expected)
    }

    @Test(arguments: OutputMode.allCases)
    func emptyResultWritesNothing(mode: OutputMode) throws {
        let db = try RenderFixture.database()
        let bytes = try RenderFixture.render("SELECT * FROM f WHERE 0", on: db, options: RenderOptions(mode: mode))
        #expect(bytes.isEmpty)
    }

    @Test(arguments: [
        (OutputMode.list, true, "id|name\n1|日本語\n"),
        (.csv, true, "id,name\r\n1,\"日本語\"\r\n"),
        (.tsv, true, "id\tname\n1\t日本語\n"),
        (.quote, true, "'id','name'\n1,'日本語'\n"),
        (.insert, true, "INSERT INTO \"table\"(id,name) VALUES(1,'日本語');\n"),
        (.markdown, false, "| 1 | 日本語 |\n"),
        (.table, false, "+---+--------+\n| 1 | 日本語 |\n+---+--------+\n"),
    ])
    func headersFollowTheFlag(mode: OutputMode, showsHeaders: Bool, expected: String) throws {
        let db = try RenderFixture.database()
        let bytes = try RenderFixture.render(
            "SELECT id, name FROM f LIMIT 1", on: db, options: RenderOptions(mode: mode, showsHeaders: showsHeaders))
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test func nullValueShowsInHumanAndDelimitedModes() throws {
        let db = try RenderFixture.database()
        let sql = "SELECT name FROM f WHERE id = 5"
        for (mode, expected) in [(OutputMode.list, "NULL\n"), (.csv, "NULL\r\n"), (.line, " name = NULL\n"), (.quote, "NULL\n")] {
            let bytes = try RenderFixture.render(sql, on: db, options: RenderOptions(mode: mode, nullValue: "NULL"))
            #expect(String(decoding: bytes, as: UTF8.self) == expected, "\(mode)")
        }
    }

    @Test func insertModeNamesTheTableAndQuotesIdentifiers() throws {
        let db = try RenderFixture.database()
        let options = RenderOptions(mode: .insert, showsHeaders: true, insertTableName: "wine list")
        let bytes = try RenderFixture.render("SELECT 1 AS \"select\", 2 AS plain, 3 AS \"a\"\"b\"", on: db, options: options)
        #expect(
            String(decoding: bytes, as: UTF8.self) == "INSERT INTO \"wine list\"(\"select\",plain,\"a\"\"b\") VALUES(1,2,3);\n")
    }

    @Test func insertModeKeepsCarriageReturnsAndMarkersApart() throws {
        let db = try RenderFixture.database()
        let bytes = try RenderFixture.render(
            "SELECT char(13) || 'x' || char(10) || '\\n'", on: db, options: RenderOptions(mode: .insert))
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "INSERT INTO \"table\" VALUES(replace(replace('\\rx\\012\\n','\\r',char(13)),'\\012',char(10)));\n")
    }
}
