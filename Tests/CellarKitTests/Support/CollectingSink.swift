import CellarKit

/// Collects rendered bytes in memory.
final class CollectingSink: ByteSink {
    private(set) var bytes: [UInt8] = []

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }
}
