import Glibc

/// A row of ``Value``s as cells, for rows that come from elsewhere than a local statement (a dqlite
/// cluster): integers and reals as the text SQLite would give them, text and blobs as their bytes.
package struct ValueCells: CellSource {
    let values: [Value]
    private let texts: [[UInt8]]

    init(_ values: [Value]) {
        self.values = values
        texts = values.map { value in
            switch value {
            case .null: []
            case .integer(let integer): Array(String(integer).utf8)
            case .real(let real): Array(Self.sqliteText(of: real).utf8)
            case .text(let text): Array(text.utf8)
            case .blob(let bytes): bytes
            }
        }
    }

    var cellCount: Int { values.count }

    func storageClass(at index: Int) -> StorageClass { values[index].storageClass }

    func double(at index: Int) -> Double {
        switch values[index] {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: 0
        }
    }

    func withBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try texts[index].withUnsafeBufferPointer(body)
    }

    /// The text SQLite gives a real (`sqlite3_column_text`, format `%!.15g`): 15 significant digits,
    /// and a `.0` on a whole mantissa (`42.0`, `1.0e+300`); `Inf` and `-Inf` for infinities.
    package static func sqliteText(of value: Double) -> String {
        if value.isInfinite { return value < 0 ? "-Inf" : "Inf" }
        var buffer = [CChar](repeating: 0, count: 48)
        _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, "%.15g", $0) }
        var text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let mantissaEnd = text.firstIndex(of: "e") ?? text.endIndex
        if !text[..<mantissaEnd].contains(".") { text.insert(contentsOf: ".0", at: mantissaEnd) }
        return text
    }
}
