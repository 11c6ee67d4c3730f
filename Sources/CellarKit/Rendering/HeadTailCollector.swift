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
