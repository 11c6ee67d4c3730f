import CellarCLI
import CellarKit
import TestSupport

/// A database with a `wine` table (rows 1 and 2 hold blobs, row 3 NULL, row 4 text) and the CLI run
/// in-process on it, with the streams a test chooses.
final class BlobProject {
    let folder = TemporaryDirectory()
    var databasePath: String { folder.file("wine.db") }

    init() throws {
        try Database(path: databasePath).execute(
            """
            CREATE TABLE wine (id INTEGER PRIMARY KEY, name TEXT NOT NULL DEFAULT 'unnamed', label BLOB);
            INSERT INTO wine (id, name, label) VALUES (1, 'Monte Bello', X'89504E47'), (2, 'Musar', X'0102030405');
            INSERT INTO wine (id, name, label) VALUES (3, 'Bare', NULL), (4, 'Texty', 'not bytes');
            """)
    }

    /// Runs `cellar ARGUMENTS -d wine.db` with `input` on standard input.
    func run(
        _ arguments: [String], input: [UInt8] = [], isOutputTerminal: Bool = false, isErrorTerminal: Bool = false,
        database: String? = nil
    ) -> InProcessRun {
        InProcessRun(
            arguments + ["-d", database ?? databasePath], input: input, isOutputTerminal: isOutputTerminal,
            isErrorTerminal: isErrorTerminal)
    }

    /// The label of row `id`.
    func label(_ id: Int64) throws -> Value? {
        try Database(path: databasePath, options: .init(mode: .readOnly)).scalar("SELECT label FROM wine WHERE id = ?", [id])
    }

    /// The names in the folder, sorted.
    func fileNames() throws -> [String] {
        try DirectoryListing.fileNames(in: folder.path)
    }
}
