/// The repository this test build comes from, for tests that read its files (the manual, the examples).
public enum Repository {
    /// The repository's root, found from this file's path (`Tests/TestSupport/Repository.swift`).
    public static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()
}
