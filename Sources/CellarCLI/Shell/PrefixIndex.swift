/// Names sorted by their lowercased UTF-8 bytes, so that the names starting with a prefix (in any
/// case) are one run found by binary search: a lookup costs O(log n + matches), not O(n).
struct PrefixIndex: Sendable {
    /// The names, each once, in key order.
    let names: [String]
    /// The lowercased names, in the same order.
    private let keys: [String]

    /// Indexes `names`, dropping repeats.
    init(_ names: some Sequence<String>) {
        let pairs = Set(names).map { (key: $0.lowercased(), name: $0) }.sorted { left, right in
            left.key == right.key
                ? left.name.utf8.lexicographicallyPrecedes(right.name.utf8)
                : left.key.utf8.lexicographicallyPrecedes(right.key.utf8)
        }
        self.names = pairs.map(\.name)
        keys = pairs.map(\.key)
    }

    /// The names that start with `prefix`, in any case.
    func names(startingWith prefix: String) -> [String] {
        let lowered = prefix.lowercased()
        let start = firstKey(notBefore: lowered)
        var end = start
        while end < keys.count, keys[end].utf8.starts(with: lowered.utf8) { end += 1 }
        return Array(names[start..<end])
    }

    /// Whether `name` is one of the names, exactly.
    func contains(_ name: String) -> Bool {
        let key = name.lowercased()
        var index = firstKey(notBefore: key)
        while index < keys.count, keys[index] == key {
            if names[index] == name { return true }
            index += 1
        }
        return false
    }

    /// The first position whose key does not sort before `key` (binary search).
    private func firstKey(notBefore key: String) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].utf8.lexicographicallyPrecedes(key.utf8) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
