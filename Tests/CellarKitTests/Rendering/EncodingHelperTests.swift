import CellarKit
import Testing

/// The small encoders the machine modes rely on.
@Suite struct EncodingHelperTests {
    @Test(arguments: [
        ([UInt8](), ""), ([0xFF], "/w=="), ([0xFF, 0x00], "/wA="), ([0x00, 0x01, 0x02], "AAEC"),
        (Array("Château".utf8), "Q2jDonRlYXU="),
    ])
    func base64EncodesAndDecodes(bytes: [UInt8], text: String) {
        #expect(Base64Encoding.string(bytes) == text)
        #expect(Base64Encoding.decode(text) == bytes)
    }

    @Test(arguments: [
        ("wine", "wine"), ("table", "\"table\""), ("SELECT", "\"SELECT\""), ("a b", "\"a b\""), ("a\"b", "\"a\"\"b\""),
        ("_x9", "_x9"), ("9x", "\"9x\""), ("", "\"\""), ("é", "\"é\""),
    ])
    func identifiersAreQuotedOnlyWhenNeeded(name: String, quoted: String) {
        #expect(IdentifierQuoting.quote(name) == quoted)
    }

    @Test func controlCharactersAreEscapedForTerminals() {
        #expect(ControlCharacterEscaping.escape("a\u{1B}[31m\u{85}b\u{7F}\n\t") == "a\\x1b[31m\\x85b\\x7f\\n\\t")
    }
}
