/// The shell's dot-commands that cannot run on a dqlite database, and why: each needs something of
/// a local SQLite connection or file that the cluster's wire protocol does not offer. The others
/// (SQL, the schema, settings, output, `.dump`, `.import`, `.migrations`) run through the engine seam.
enum RemoteDotCommands {
    /// Why `.name` does not run on the dqlite database at `url`; nil when it does.
    static func unavailableReason(_ name: String, url: String) -> String? {
        let reason: String
        switch name {
        case "backup", "save", "restore":
            reason = "needs SQLite's online backup API on a local file, which a dqlite cluster does not offer"
        case "blob":
            reason = "streams a blob with SQLite's incremental blob I/O, which dqlite's wire protocol does not offer"
        case "load":
            reason =
                "cannot load into a dqlite database: the cluster's nodes run their own SQLite, and cellar cannot load code into them"
        case "dbinfo":
            reason = "reads the database file's header, and a dqlite database's files are on the cluster's nodes"
        case "stats":
            reason = "shows the counters of this process's SQLite, and a dqlite database's statements run in the leader's"
        case "timeout":
            reason = "cannot change the wait of a dqlite database: it is the busy timeout cellar connected with (--busy-timeout)"
        default:
            return nil
        }
        return "'.\(name)' \(reason) (\(url))"
    }
}
