/// Sizes as people read them: `10 B`, `2.4 KiB`, `1.2 MiB`, `3.0 GiB` (binary units, one decimal).
public enum ByteSize {
    /// The text of `count` bytes.
    ///
    /// ```swift
    /// ByteSize.text(2458) // "2.4 KiB"
    /// ```
    public static func text(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        var tenths = 0
        for unit in ["KiB", "MiB", "GiB", "TiB"] {
            let divisor =
                unit == "KiB" ? 1024.0 : unit == "MiB" ? 1_048_576.0 : unit == "GiB" ? 1_073_741_824.0 : 1_099_511_627_776.0
            tenths = Int((Double(count) / divisor * 10).rounded())
            if tenths < 10240 || unit == "TiB" { return "\(tenths / 10).\(tenths % 10) \(unit)" }
        }
        return "\(tenths / 10).\(tenths % 10) TiB"
    }
}
