/// Keeps the first and the last rows of a result of any length: the head as it comes, the tail in a
/// ring buffer, so memory holds at most `limit` rows.
struct HeadTailCollector {
    /// How many rows from the start are kept.
    let headLimit: Int
    /// How many rows from the end are kept.
    let tailLimit: Int
    /// The first rows.
    private(set) var head: [StoredRow] = []
    private var ring: [StoredRow] = []
    private var ringStart = 0
    /// Every row seen.
    private(set) var rowCount = 0

    /// A collector showing `limit` rows: the first `limit / 2` (rounded up) and the last `limit / 2`.
    init(limit: Int) {
        let limit = max(limit, 0)
        // `(limit + 1) / 2` would overflow for `Int.max` (`.maxrows 9223372036854775807`).
        headLimit = limit / 2 + limit % 2
        tailLimit = limit / 2
    }

    /// The same rows seen, keeping only the first `limit / 2` (rounded up) of the head and the last
    /// `limit / 2` of the tail: a smaller view of the same result, without stepping it again.
    func narrowed(to limit: Int) -> HeadTailCollector {
        var narrowed = HeadTailCollector(limit: min(limit, headLimit + tailLimit))
        guard narrowed.headLimit < headLimit || narrowed.tailLimit < tailLimit else { return self }
        narrowed.rowCount = rowCount
        narrowed.head = Array(head.prefix(narrowed.headLimit))
        let kept = tail
        narrowed.ring = Array(kept.suffix(narrowed.tailLimit))
        // Rows the old head kept beyond the new one, when the result was short enough not to reach the
        // tail, belong in the new tail (a view of 20 of 15 rows keeps them all).
        let unplacedHead = head.dropFirst(narrowed.headLimit)
        if narrowed.ring.count < narrowed.tailLimit {
            let missing = narrowed.tailLimit - narrowed.ring.count
            narrowed.ring = Array(unplacedHead.suffix(missing)) + narrowed.ring
        }
        return narrowed
    }

    /// Rows seen but not kept.
    var omittedCount: Int { rowCount - head.count - ring.count }

    /// The last rows, oldest first.
    var tail: [StoredRow] { Array(ring[ringStart...] + ring[..<ringStart]) }

    mutating func add(_ row: some CellSource) {
        rowCount += 1
        if head.count < headLimit {
            head.append(StoredRow(copying: row))
        } else if tailLimit > 0 {
            if ring.count < tailLimit {
                ring.append(StoredRow(copying: row))
            } else {
                ring[ringStart] = StoredRow(copying: row)
                ringStart = (ringStart + 1) % tailLimit
            }
        }
    }
}
