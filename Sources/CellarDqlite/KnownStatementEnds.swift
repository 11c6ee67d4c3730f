import Glibc

/// Where the statement of a one-statement text the connection was given before starts and ends, kept
/// by the text's bytes, the few most recently used.
///
/// The migrator sends the same texts for every migration (its `BEGIN IMMEDIATE` and its ledger
/// lookup), and finding where a text's statement ends is a pass of ``StatementBoundaryScanner`` over
/// all of it (the lookup's 600 bytes cost some 15k instructions) where comparing it with a kept text
/// is one `memcmp`. The ends are a function of the bytes alone, so a kept text gives what the scanner
/// would. Only short texts holding one statement are kept, so a migration file's statements pass
/// through without displacing them.
struct KnownStatementEnds {
    private struct Entry {
        let bytes: [UInt8]
        let first: Int
        let end: Int
        let isComplete: Bool
    }

    /// The texts kept, the most recently used last.
    private var entries: [Entry] = []

    /// How many texts are kept at most (then the one used least recently goes).
    static let limit = 8
    /// How long a text may be to be kept, in bytes.
    static let longestText = 4_096

    /// The first token's offset, the statement's end and whether a `;` completes it there (rather than
    /// the end of the text) in `text`, when it is a text kept.
    mutating func bounds(of text: UnsafeBufferPointer<UInt8>) -> (first: Int, end: Int, isComplete: Bool)? {
        guard let base = text.baseAddress else { return nil }
        for index in entries.indices.reversed() where entries[index].bytes.count == text.count {
            let matches = entries[index].bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, text.count) == 0 }
            guard matches else { continue }
            let entry = entries[index]
            if index != entries.count - 1 {
                entries.remove(at: index)
                entries.append(entry)
            }
            return (entry.first, entry.end, entry.isComplete)
        }
        return nil
    }

    /// Keeps where the statement of `text`, its only one (nothing but trivia after `end`), starts and ends.
    mutating func remember(_ text: UnsafeBufferPointer<UInt8>, first: Int, end: Int, isComplete: Bool) {
        guard text.count <= Self.longestText, text.count > 0 else { return }
        if entries.count >= Self.limit { entries.removeFirst() }
        entries.append(Entry(bytes: Array(text), first: first, end: end, isComplete: isComplete))
    }
}
