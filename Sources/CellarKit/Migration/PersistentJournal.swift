/// Keeps a database's rollback journal file from one migration's transaction to the next while a run
/// applies them, instead of creating and deleting it for each (`PRAGMA journal_mode = PERSIST`).
///
/// Each migration still commits on its own, with the same syncs: the journal is written and synced
/// before the database changes, and a commit zeroes its header, which makes it inert
/// (<https://sqlite.org/pragma.html#pragma_journal_mode>). What is saved is the file system's work of
/// creating and deleting a file per migration, which costs more than the migration itself on a small
/// database. The mode is a setting of the connection, not of the file; the run ends in `DELETE` mode
/// again, which deletes the journal. Databases in another mode (WAL, TRUNCATE, …) are left as they are,
/// and so is a mode a `transaction:false` migration set.
package enum PersistentJournal {
    /// Runs `body` (a run of migrations) on `database` with its journal kept between transactions, when
    /// the database is in the default `DELETE` mode.
    package static func during<Result>(_ database: Database, _ body: () throws -> Result) throws -> Result {
        guard try database.scalar("PRAGMA main.journal_mode") == .text("delete") else { return try body() }
        try database.execute("PRAGMA main.journal_mode = PERSIST")
        defer { restoreDeleteMode(of: database) }
        return try body()
    }

    /// Switches `database` back to `DELETE` mode, which deletes the journal file. A SIGINT or SIGTERM
    /// that interrupts the switch itself (it reaches every guarded connection of a fleet at once) is
    /// one interruption: the switch is tried again, so a stopped run leaves no journal behind.
    private static func restoreDeleteMode(of database: Database) {
        for _ in 0..<3 {
            do {
                guard try database.scalar("PRAGMA main.journal_mode") == .text("persist") else { return }
                try database.execute("PRAGMA main.journal_mode = DELETE")
                return
            } catch let error as SQLiteError where error.isInterrupt {
                continue
            } catch {
                return
            }
        }
    }
}
