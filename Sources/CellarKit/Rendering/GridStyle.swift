/// The characters `box`, `table` and `markdown` draw their grids with.
struct GridStyle {
    /// Left, middle, right and fill of the line above the header; nil for none.
    let top: [String]?
    /// The line between the header and the rows.
    let separator: [String]
    /// The line below the last row; nil for none.
    let bottom: [String]?
    /// The vertical bar between cells.
    let bar: String

    static let box = GridStyle(
        top: ["┌", "┬", "┐", "─"], separator: ["├", "┼", "┤", "─"], bottom: ["└", "┴", "┘", "─"], bar: "│")
    static let table = GridStyle(
        top: ["+", "+", "+", "-"], separator: ["+", "+", "+", "-"], bottom: ["+", "+", "+", "-"], bar: "|")
    static let markdown = GridStyle(top: nil, separator: ["|", "|", "|", "-"], bottom: nil, bar: "|")

    /// A horizontal line for columns of these widths (each cell has a blank either side).
    static func line(_ parts: [String], widths: [Int]) -> [UInt8] {
        var line = parts[0]
        for (index, width) in widths.enumerated() {
            if index > 0 { line += parts[1] }
            line += String(repeating: parts[3], count: width + 2)
        }
        line += parts[2] + "\n"
        return Array(line.utf8)
    }
}
