/// The text `cellar new` writes into a new migration file.
///
/// Its up section holds only a comment, so that applying the file unedited is refused as not written
/// yet (``MigrationError/unwritten(path:)``) rather than recorded as a no-op.
package enum MigrationTemplate {
    /// The whole file.
    package static let text = """
        -- migrate:up
        \(upComment)

        -- migrate:down
        -- Write the SQL that undoes it here.

        """

    /// The up section's only line.
    static let upComment = "-- Write the SQL that applies this migration here."

    /// The checksum of the template's up section: an up section with this checksum (CRLF or LF) is
    /// still the template's.
    static let upChecksum = MigrationParser.checksum(of: upComment.utf8)
}
