import Glibc

/// Tells a static executable from one the dynamic loader starts, by its ELF program headers.
enum ExecutableLinkage {
    /// Whether the 64-bit ELF file at `path` has no `PT_INTERP` header (no dynamic loader named), as
    /// `scripts/build-release` makes it; nil when the file cannot be read as ELF.
    static func isStatic(_ path: String) -> Bool? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // ELF64 header: magic at 0, program header offset at 32, entry size at 54, entry count at 56.
        guard let header = read(descriptor, at: 0, count: 64), header.starts(with: [0x7F, 0x45, 0x4C, 0x46]), header[4] == 2
        else { return nil }
        let tableOffset = Int(littleEndian: header, at: 32, width: 8)
        let entrySize = Int(littleEndian: header, at: 54, width: 2)
        let entryCount = Int(littleEndian: header, at: 56, width: 2)
        let interpreterType = 3
        for index in 0..<entryCount {
            guard let type = read(descriptor, at: tableOffset + index * entrySize, count: 4) else { return nil }
            if Int(littleEndian: type, at: 0, width: 4) == interpreterType { return false }
        }
        return true
    }

    private static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        return got == count ? bytes : nil
    }
}

extension Int {
    /// The little-endian unsigned number of `width` bytes at `offset` in `bytes`.
    fileprivate init(littleEndian bytes: [UInt8], at offset: Int, width: Int) {
        self = bytes[offset..<offset + width].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
