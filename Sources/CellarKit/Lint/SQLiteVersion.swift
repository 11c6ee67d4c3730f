/// A release of SQLite, `3.35.0`, ordered as releases are.
package struct SQLiteVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major, minor and patch numbers.
    package let parts: [Int]

    /// `3.35.0` from its numbers.
    package init(_ major: Int, _ minor: Int, _ patch: Int = 0) {
        parts = [major, minor, patch]
    }

    /// Reads `X.Y.Z` (or `X.Y`); nil for anything else.
    package init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(pieces.count) else { return nil }
        var numbers: [Int] = []
        for piece in pieces {
            guard !piece.isEmpty, piece.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let number = Int(piece), number < 1000
            else { return nil }
            numbers.append(number)
        }
        parts = numbers + (numbers.count == 2 ? [0] : [])
    }

    /// The SQLite cellar is linked with.
    package static var linked: SQLiteVersion { SQLiteVersion(Database.libraryVersion) ?? SQLiteVersion(3, 0) }

    package var description: String { parts.map(String.init).joined(separator: ".") }

    package static func < (lhs: SQLiteVersion, rhs: SQLiteVersion) -> Bool {
        lhs.parts.lexicographicallyPrecedes(rhs.parts)
    }
}
