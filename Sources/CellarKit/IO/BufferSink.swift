/// Collects bytes in memory, for tests and for capturing output.
public final class BufferSink: ByteSink {
    /// Everything written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty sink.
    public init() {}

    /// Appends `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    /// Everything written so far, decoded as UTF-8.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}
