/// Sizes as people read them: `10 B`, `2.4 KiB`, `1.2 MiB`, `3.0 GiB` (binary units, one decimal).
package enum ByteSize {
    private static let units = ["KiB", "MiB", "GiB", "TiB"]

    /// The text of `count` bytes.
    ///
    /// ```swift
    /// ByteSize.text(2458) // "2.4 KiB"
    /// ```
    package static func text(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        var divisor = 1024.0
        for (index, unit) in units.enumerated() {
            let tenths = Int((Double(count) / divisor * 10).rounded())
            // 1023.96 KiB rounds to 1024.0: show it as 1.0 MiB instead.
            if tenths < 10240 || index == units.count - 1 { return "\(tenths / 10).\(tenths % 10) \(unit)" }
            divisor *= 1024
        }
        return "\(count) B"
    }
}
