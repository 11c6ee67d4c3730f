/// A cell as human modes show it: escaped text, its display width, and whether it is a number
/// (numbers are right-aligned).
struct HumanCell {
    var bytes: [UInt8]
    var width: Int
    var isNumber: Bool
}
