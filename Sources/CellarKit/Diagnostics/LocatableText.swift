/// Text a diagnostic points into by byte offset: a whole text in memory (``SourceText``) or the part
/// of a stream the script reader still holds.
package protocol LocatableText {
    /// The line and column of byte `offset`.
    func location(of offset: Int) -> SourceLocation

    /// The text of the line holding byte `offset`, without its terminator; nil when it is not held.
    func lineText(at offset: Int) -> String?
}
