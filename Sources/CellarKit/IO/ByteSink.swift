/// Somewhere rendered bytes go: standard output, a file, or a buffer in a test.
///
/// Renderers collect output in a large buffer of their own and hand it over in big pieces, so a sink
/// need not buffer.
public protocol ByteSink: AnyObject {
    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws

    /// Passes on anything the sink holds back; a sink without a buffer does nothing.
    func flush() throws
}

extension ByteSink {
    /// Does nothing: the sink holds nothing back.
    public func flush() throws {}

    /// Writes the UTF-8 bytes of `text`.
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }
}
