/// What human modes show for a blob: its size and, where the first bytes say so, its type and the
/// pixel size of an image: `<blob 10 B>`, `<PNG 64×48, 2.4 KiB>`, `<gzip 1.2 MiB>`.
package enum BlobDescription {
    /// The description of `bytes`.
    ///
    /// ```swift
    /// BlobDescription.text(of: pngBytes) // "<PNG 64×48, 2.4 KiB>"
    /// ```
    package static func text(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        let size = ByteSize.text(bytes.count)
        guard let kind = BlobKind.detect(bytes) else { return "<blob \(size)>" }
        if let (width, height) = kind.dimensions {
            return "<\(kind.name) \(width)×\(height), \(size)>"
        }
        return "<\(kind.name) \(size)>"
    }

    /// The description of `bytes`.
    package static func text(of bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { text(of: $0) }
    }
}
