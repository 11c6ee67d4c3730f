import CellarKit
import Testing

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownAnswers(message: String, digest: String) {
        #expect(SHA256.hexDigest(of: Array(message.utf8)) == digest)
    }

    @Test func oneMillionLetterA() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        let hex = hasher.finalize().map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        #expect(hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func splittingTheInputDoesNotChangeTheDigest() {
        let message = Array("The quick brown fox jumps over the lazy dog, and then some more text past one block.".utf8)
        for split in [0, 1, 55, 56, 63, 64, message.count] {
            var hasher = SHA256()
            hasher.update(message[0..<split])
            hasher.update(message[split...])
            #expect(
                hasher.finalize()
                    == {
                        var whole = SHA256()
                        whole.update(message)
                        return whole.finalize()
                    }())
        }
    }
}
