/// Why a dump could not be written.
public enum DumpError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A table pattern matched no table or view.
    case noMatchingTable(pattern: String)

    public var description: String {
        switch self {
        case .noMatchingTable(let pattern): "no table or view matches '\(pattern)'"
        }
    }
}
