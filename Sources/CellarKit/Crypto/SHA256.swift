/// SHA-256 as FIPS 180-4 defines it, for migration checksums (no dependency on a crypto library).
///
/// ```swift
/// SHA256.hexDigest(of: Array("abc".utf8))
/// // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
/// ```
package struct SHA256: Sendable {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    private var state = initialState
    private var pending: [UInt8] = []
    private var byteCount: UInt64 = 0

    /// Creates a hasher that has read nothing yet.
    package init() {
        pending.reserveCapacity(64)
    }

    /// Feeds more bytes.
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        let absorbed: Void? = bytes.withContiguousStorageIfAvailable { absorb($0) }
        if absorbed == nil { Array(bytes).withUnsafeBufferPointer { absorb($0) } }
    }

    /// Hashes every whole 64-byte block of `bytes` in place, keeping the rest until more comes.
    private mutating func absorb(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        byteCount &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            offset = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: UnsafeBufferPointer(start: base, count: offset))
            guard pending.count == 64 else { return }
            pending.withUnsafeBufferPointer { block in
                state.withUnsafeMutableBufferPointer { Self.compress($0.baseAddress!, block: block.baseAddress!) }
            }
            pending.removeAll(keepingCapacity: true)
        }
        state.withUnsafeMutableBufferPointer { state in
            while bytes.count - offset >= 64 {
                Self.compress(state.baseAddress!, block: base + offset)
                offset += 64
            }
        }
        pending.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: bytes.count - offset))
    }

    /// The 32-byte digest of everything fed so far.
    package func finalize() -> [UInt8] {
        var copy = self
        let bitLength = byteCount &* 8
        // 0x80, zeros up to 8 bytes short of a block's end, the length in bits (big-endian): at most 72 bytes.
        let zeros = (119 - pending.count) % 64
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 72) { padding in
            padding[0] = 0x80
            for index in 0..<zeros { padding[1 + index] = 0 }
            for index in 0..<8 { padding[1 + zeros + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * index)) }
            copy.absorb(UnsafeBufferPointer(rebasing: padding[0..<(9 + zeros)]))
        }
        var digest = [UInt8](repeating: 0, count: 32)
        for (index, word) in copy.state.enumerated() {
            for byte in 0..<4 { digest[index * 4 + byte] = UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * byte)) }
        }
        return digest
    }

    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    package static func hexDigest(of bytes: some Sequence<UInt8>) -> String {
        if let digest = bytes.withContiguousStorageIfAvailable({ digest(of: $0) }) { return HexEncoding.string(digest) }
        var hasher = SHA256()
        hasher.update(bytes)
        return HexEncoding.string(hasher.finalize())
    }

    /// The digest of bytes that are all at hand, hashed in place: the whole blocks, then the last one or
    /// two (the rest, the padding and the length) built on the stack, with no buffer of pending bytes
    /// and no copy of the hasher as ``finalize()`` makes.
    private static func digest(of bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 8) { state in
            let state = state.baseAddress!
            for index in 0..<8 { state[index] = initialState[index] }
            let whole = bytes.count / 64 * 64
            if let base = bytes.baseAddress {
                var offset = 0
                while offset < whole {
                    compress(state, block: base + offset)
                    offset += 64
                }
            }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                let rest = bytes.count - whole
                for index in 0..<rest { tail[index] = bytes[whole + index] }
                // 0x80, zeros up to 8 bytes short of the block's end, the length in bits (big-endian).
                let end = rest + 9 <= 64 ? 64 : 128
                tail[rest] = 0x80
                for index in (rest + 1)..<(end - 8) { tail[index] = 0 }
                let bitLength = UInt64(bytes.count) &* 8
                for index in 0..<8 { tail[end - 8 + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * index)) }
                compress(state, block: tail.baseAddress!)
                if end == 128 { compress(state, block: tail.baseAddress! + 64) }
            }
            return [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
                for index in 0..<32 {
                    digest[index] = UInt8(truncatingIfNeeded: state[index / 4] >> UInt32(24 - 8 * (index % 4)))
                }
                count = 32
            }
        }
    }

    // MARK: - The compression function

    /// Mixes the 64 bytes at `block` into `state`.
    ///
    /// The eight working variables are not shifted along after each round: each group of eight rounds
    /// passes them to ``round(_:_:_:_:_:_:_:_:_:)`` in the roles that a shift would have given them.
    private static func compress(_ state: UnsafeMutablePointer<UInt32>, block: UnsafePointer<UInt8>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            for index in 0..<16 {
                let base = block + index * 4
                schedule[index] = UInt32(base[0]) << 24 | UInt32(base[1]) << 16 | UInt32(base[2]) << 8 | UInt32(base[3])
            }
            for index in 16..<64 {
                let early = schedule[index - 15]
                let late = schedule[index - 2]
                let sigma0 = early.rotatedRight(7) ^ early.rotatedRight(18) ^ (early >> 3)
                let sigma1 = late.rotatedRight(17) ^ late.rotatedRight(19) ^ (late >> 10)
                schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
            }
            roundConstants.withUnsafeBufferPointer { constants in
                var (a, b, c, d) = (state[0], state[1], state[2], state[3])
                var (e, f, g, h) = (state[4], state[5], state[6], state[7])
                var index = 0
                while index < 64 {
                    round(a, b, c, &d, e, f, g, &h, constants[index] &+ schedule[index])
                    round(h, a, b, &c, d, e, f, &g, constants[index + 1] &+ schedule[index + 1])
                    round(g, h, a, &b, c, d, e, &f, constants[index + 2] &+ schedule[index + 2])
                    round(f, g, h, &a, b, c, d, &e, constants[index + 3] &+ schedule[index + 3])
                    round(e, f, g, &h, a, b, c, &d, constants[index + 4] &+ schedule[index + 4])
                    round(d, e, f, &g, h, a, b, &c, constants[index + 5] &+ schedule[index + 5])
                    round(c, d, e, &f, g, h, a, &b, constants[index + 6] &+ schedule[index + 6])
                    round(b, c, d, &e, f, g, h, &a, constants[index + 7] &+ schedule[index + 7])
                    index += 8
                }
                state[0] &+= a
                state[1] &+= b
                state[2] &+= c
                state[3] &+= d
                state[4] &+= e
                state[5] &+= f
                state[6] &+= g
                state[7] &+= h
            }
        }
    }

    /// One round, with the round's constant and schedule word added together in `word`: `d` takes
    /// `d + T1` (the next round's `e`) and `h` takes `T1 + T2` (its `a`), FIPS 180-4 section 6.2.2.
    @inline(__always)
    private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
        _ word: UInt32
    ) {
        let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
        let choice = g ^ (e & (f ^ g))
        let temporary1 = h &+ sum1 &+ choice &+ word
        let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
        let majority = (a & b) | (c & (a | b))
        d &+= temporary1
        h = temporary1 &+ sum0 &+ majority
    }
}

extension UInt32 {
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 - count))
    }
}
