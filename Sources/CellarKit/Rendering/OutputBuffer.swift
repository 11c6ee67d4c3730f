/// The large byte buffer every renderer writes through; handed to the sink in big pieces.
struct OutputBuffer {
    /// What is waiting to be written.
    var bytes: [UInt8] = []
    /// Where it goes.
    let sink: any ByteSink
    /// The size at which ``flushIfFull()`` writes.
    static let threshold = 1 << 18

    init(sink: any ByteSink) {
        self.sink = sink
        bytes.reserveCapacity(Self.threshold + 4096)
    }

    mutating func append(_ byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }

    mutating func append(_ array: [UInt8]) {
        bytes.append(contentsOf: array)
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        bytes.append(contentsOf: repeatElement(byte, count: count))
    }

    /// How many input bytes ``appendEncoded(_:_:)`` encodes at a time: a multiple of 3, so that base64
    /// pads only the last piece.
    static let encodingChunk = 3 << 14

    /// Appends `bytes` as `encode` writes them (hex, base64), a chunk at a time, writing out whenever the
    /// buffer fills: a cell of any size costs the buffer, never a second, encoded copy of the cell.
    mutating func appendEncoded(
        _ bytes: UnsafeBufferPointer<UInt8>, _ encode: (UnsafeBufferPointer<UInt8>, inout [UInt8]) -> Void
    ) throws {
        guard bytes.count > Self.encodingChunk else { return encode(bytes, &self.bytes) }
        var start = 0
        while start < bytes.count {
            let end = min(start + Self.encodingChunk, bytes.count)
            encode(UnsafeBufferPointer(rebasing: bytes[start..<end]), &self.bytes)
            start = end
            try flushIfFull()
        }
    }

    /// Writes when the buffer has grown past the threshold.
    mutating func flushIfFull() throws {
        if bytes.count >= Self.threshold { try flush() }
    }

    /// Writes everything buffered.
    mutating func flush() throws {
        guard !bytes.isEmpty else { return }
        try bytes.withUnsafeBytes { try sink.write($0) }
        bytes.removeAll(keepingCapacity: true)
    }
}
