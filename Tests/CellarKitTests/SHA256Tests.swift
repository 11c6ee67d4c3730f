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

    /// Lengths around the padding's boundaries (55 bytes leave room for the length in the last block,
    /// 56 need one more block); the digests are `sha256sum`'s of that many `a`s.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (57, "f13b2d724659eb3bf47f2dd6af1accc87b81f09f59f2b75e5c0bed6589dfe8c6"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (111, "6374f73208854473827f6f6a3f43b1f53eaa3b82c21c1a6d69a2110b2a79baad"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
        (127, "c57e9278af78fa3cab38667bef4ce29d783787a2f731d4e12200270f0c32320a"),
        (128, "6836cf13bac400e9105071cd6af47084dfacad4e5e302c94bfed24e013afb73e"),
    ])
    func lengthsAroundThePaddingBoundaries(length: Int, digest: String) {
        #expect(SHA256.hexDigest(of: [UInt8](repeating: UInt8(ascii: "a"), count: length)) == digest)
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

    /// Bytes at hand (an array) are hashed in place in one pass; a sequence without contiguous storage
    /// goes through the incremental hasher: both give the same digest at every length around the blocks.
    @Test func bytesHashedInPlaceAndIncrementallyAgree() {
        for length in 0...200 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(SHA256.hexDigest(of: bytes) == SHA256.hexDigest(of: bytes.lazy.map { $0 }), "length \(length)")
        }
    }
}
