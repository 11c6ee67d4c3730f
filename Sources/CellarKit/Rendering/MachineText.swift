/// How machine modes write text that is not changed by their format: exact bytes into a file or a
/// pipe, control characters escaped on a terminal.
struct MachineText {
    let escapesControlCharacters: Bool

    func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        if escapesControlCharacters {
            ControlCharacterEscaping.escape(bytes, into: &output)
        } else {
            output.append(contentsOf: bytes)
        }
    }

    func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { append($0, to: &output) }
    }
}
