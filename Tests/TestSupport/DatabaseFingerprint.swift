import CellarKit

/// Everything that makes two databases logically identical, as lines to compare: `user_version`, every
/// schema row, and every row of every table (SQLite's own included) with each value's storage class and
/// exact bits — reals by bit pattern, text and blobs by their bytes.
public enum DatabaseFingerprint {
    /// The fingerprint of the database at `path`.
    public static func lines(of path: String) throws -> [String] {
        let database = try Database(path: path, options: Database.Options(mode: .readOnly))
        var lines = ["user_version \(try database.scalar("PRAGMA user_version").map { "\($0)" } ?? "")"]
        let schema = try database.query("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name")
        lines += schema.map { "schema \($0.values)" }
        let tables = try database.query(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
        for table in tables {
            guard case .text(let name) = table[0] else { continue }
            let statement = try database.prepare("SELECT * FROM \"\(name.replacing("\"", with: "\"\""))\"")
            while try statement.step() {
                lines.append("\(name): " + (0..<statement.columnCount).map { cell(statement, $0) }.joined(separator: " | "))
            }
        }
        return lines
    }

    private static func cell(_ statement: Statement, _ index: Int) -> String {
        switch statement.storageClass(at: index) {
        case .null: "null"
        case .integer: "int \(statement.int64(at: index))"
        case .real: "real \(String(statement.double(at: index).bitPattern, radix: 16))"
        case .text: "text " + statement.withTextBytes(at: index) { HexEncoding.string($0) }
        case .blob: "blob " + statement.withBlobBytes(at: index) { HexEncoding.string($0) }
        }
    }
}
