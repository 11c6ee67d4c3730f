/// How many rows a limited rendering (``ResultRenderer/render(_:limit:)``) saw and how many it left out.
public struct RenderSummary: Sendable, Equatable {
    /// Every row the statement returned.
    public let rowCount: Int
    /// Rows not written (0 when the result fitted in the limit).
    public let omittedRowCount: Int

    /// Creates a summary.
    public init(rowCount: Int, omittedRowCount: Int) {
        self.rowCount = rowCount
        self.omittedRowCount = omittedRowCount
    }
}
