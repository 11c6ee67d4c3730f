import CellarKit

/// The schema of the classic iOS SQLite tutorials, built with bound parameters this time.
enum WinerySchema {
    static let sql = """
        CREATE TABLE wineries (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          country TEXT,
          rating REAL
        );
        CREATE TABLE wine (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          rating INTEGER CHECK (rating BETWEEN 1 AND 5),
          winery_id INTEGER REFERENCES wineries(id),
          label BLOB
        );
        """

    /// A fresh in-memory database with the schema.
    static func makeDatabase() throws -> Database {
        let database = try Database(path: ":memory:")
        try database.execute(sql)
        return database
    }
}
