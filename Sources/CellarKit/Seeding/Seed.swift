/// One seed file: SQL that fills a database with data, run once and recorded in `cellar_seeds`.
public struct Seed: Sendable, Hashable {
    /// The name recorded in `cellar_seeds`: the file name inside the seeds folder.
    public let name: String
    /// The path as the user named it, for messages.
    public let path: String
    /// The file's text (after a UTF-8 byte order mark, if any).
    public let text: String
    /// SHA-256 (lowercase hex) of the whole file, byte for byte except that CRLF counts as LF.
    public let checksum: String

    /// A seed from a file's bytes.
    ///
    /// - Throws: ``MigrationError/invalidFile(_:)`` for a bad encoding or a file without statements.
    public init(name: String, path: String, contents: [UInt8]) throws(MigrationError) {
        let text = try SQLFileDecoder.decode(contents, path: path)
        guard MigrationParser.hasStatements(text.utf8) else {
            throw .invalidFile(Diagnostic(path: path, message: "empty seed: the file holds no SQL statement"))
        }
        self.name = name
        self.path = path
        self.text = text
        self.checksum = MigrationParser.checksum(of: contents, droppingTrailingWhitespace: false)
    }

    /// Every `.sql` file of `folder`, in file-name order.
    ///
    /// - Throws: ``MigrationError/missingFolder(path:)`` or the first file's error.
    public static func all(in folder: String) throws(MigrationError) -> [Seed] {
        var seeds: [Seed] = []
        for file in try MigrationSource.sqlFiles(in: folder) {
            seeds.append(try Seed(name: file.name, path: file.path, contents: try file.contents.get()))
        }
        return seeds
    }

    /// The seed at `path`, named by its place inside `folder` whatever the spelling of either path
    /// (`seeds/./x.sql`, `seeds//x.sql` and `./seeds/x.sql` are all `x.sql`).
    ///
    /// - Throws: ``MigrationError/seedOutsideFolder(path:folder:)`` for a file outside `folder` (its
    ///   name there could collide with a seed's), ``MigrationError/invalidFile(_:)`` when it cannot be
    ///   read or is not valid.
    public static func file(_ path: String, seedsFolder folder: String) throws(MigrationError) -> Seed {
        let prefix = FilePath.normalized(folder) + "/"
        let file = FilePath.normalized(path)
        guard file.hasPrefix(prefix), file.count > prefix.count else {
            throw .seedOutsideFolder(path: path, folder: folder)
        }
        let name = String(file.dropFirst(prefix.count))
        guard DirectoryListing.isRegularFile(path) else {
            throw .invalidFile(Diagnostic(path: path, message: "no such seed file"))
        }
        do {
            return try Seed(name: name, path: path, contents: try FileContents.read(path))
        } catch let error as MigrationError {
            throw error
        } catch {
            throw .invalidFile(Diagnostic(path: path, message: "cannot read the file: \(error)"))
        }
    }
}
