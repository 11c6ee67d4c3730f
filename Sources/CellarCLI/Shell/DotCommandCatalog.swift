/// Every dot-command the shell knows, with its synopsis and one line of help (`.help`, completion,
/// "did you mean").
enum DotCommandCatalog {
    /// One dot-command.
    struct Entry: Sendable {
        /// The name without its dot.
        let name: String
        /// The arguments, as `.help` shows them.
        let synopsis: String
        /// What it does.
        let help: String
    }

    /// Every dot-command, in `.help` order.
    static let entries: [Entry] = [
        Entry(
            name: "backup", synopsis: "[main] FILE",
            help: "Copy the database to FILE (SQLite's backup API; FILE is replaced whole)"),
        Entry(name: "bail", synopsis: "on|off", help: "Stop reading piped input and .read files at the first error"),
        Entry(
            name: "blob", synopsis: "put|get TABLE COLUMN ROWID FILE",
            help: "Stream FILE into a blob cell (put, --insert) or the cell into FILE (get; - is the output)"),
        Entry(name: "changes", synopsis: "on|off", help: "Show the rows changed by each statement"),
        Entry(name: "databases", synopsis: "", help: "List the attached databases and their files"),
        Entry(name: "dbinfo", synopsis: "", help: "Show the database file's header fields and schema counts"),
        Entry(
            name: "dump", synopsis: "[--data-only|--schema-only] [PATTERN…]",
            help: "The database, or the tables matching the LIKE patterns, as SQL"),
        Entry(name: "echo", synopsis: "on|off", help: "Write each command before it runs"),
        Entry(name: "eqp", synopsis: "on|off", help: "Show the query plan as a tree before each result"),
        Entry(name: "exit", synopsis: "", help: "Leave the shell (same as .quit)"),
        Entry(name: "fullschema", synopsis: "", help: "Show the schema and the ANALYZE statistics (sqlite_stat tables)"),
        Entry(name: "headers", synopsis: "on|off", help: "Show or hide column headers"),
        Entry(name: "help", synopsis: "", help: "Show this list"),
        Entry(
            name: "import", synopsis: "[--csv] [--skip N] FILE TABLE",
            help: "Insert FILE's records into TABLE (created from the header row if missing)"),
        Entry(name: "indexes", synopsis: "[TABLE]", help: "List indexes, of the tables matching the LIKE pattern TABLE"),
        Entry(
            name: "lint", synopsis: "fkey-indexes", help: "List foreign keys no index serves, with the CREATE INDEX that would"),
        Entry(name: "load", synopsis: "FILE [ENTRY]", help: "Load an SQLite extension into this connection"),
        Entry(name: "maxrows", synopsis: "N|all", help: "Show the first and last N/2 rows of a long result (default 40)"),
        Entry(name: "migrations", synopsis: "", help: "Show every migration: applied, pending, changed or missing"),
        Entry(
            name: "mode", synopsis: "MODE",
            help: "Set the output mode: box, table, markdown, line, list, csv, …; auto: box if it fits, else line"),
        Entry(name: "nullvalue", synopsis: "TEXT", help: "Show NULL as TEXT"),
        Entry(name: "once", synopsis: "FILE", help: "Write the next command's output to FILE"),
        Entry(name: "open", synopsis: "FILE", help: "Close this database and open FILE (created if missing)"),
        Entry(name: "output", synopsis: "[FILE]", help: "Write results to FILE, or back to standard output"),
        Entry(
            name: "pager", synopsis: "on|off|COMMAND",
            help: "Show results taller than the screen in $PAGER (on), in COMMAND, or not (off, the default)"),
        Entry(name: "parameter", synopsis: "set NAME VALUE|list|clear", help: "Values for :name parameters (also: unset NAME)"),
        Entry(name: "print", synopsis: "TEXT…", help: "Write TEXT (the arguments, separated by spaces) on a line"),
        Entry(name: "prompt", synopsis: "MAIN [CONTINUE]", help: "Set the prompts"),
        Entry(name: "quit", synopsis: "", help: "Leave the shell"),
        Entry(name: "read", synopsis: "FILE", help: "Run the statements and dot-commands of FILE"),
        Entry(name: "restore", synopsis: "[main] FILE", help: "Replace the database's content with FILE's (SQLite's backup API)"),
        Entry(name: "save", synopsis: "FILE", help: "Copy the database to FILE (same as .backup)"),
        Entry(name: "schema", synopsis: "[PATTERN]", help: "Show the CREATE statements, of names matching the LIKE pattern"),
        Entry(
            name: "separator", synopsis: "COL [ROW]",
            help: "What list, csv and tsv write between cells and rows (and .import splits on)"),
        Entry(name: "shell", synopsis: "CMD", help: "Run CMD with /bin/sh (same as .system)"),
        Entry(name: "show", synopsis: "", help: "Show the current settings"),
        Entry(name: "stats", synopsis: "on|off", help: "Show SQLite's counters after each statement"),
        Entry(name: "system", synopsis: "CMD", help: "Run CMD with /bin/sh (same as .shell)"),
        Entry(name: "tables", synopsis: "[PATTERN]", help: "List tables and views, matching the LIKE pattern"),
        Entry(name: "timeout", synopsis: "MS", help: "Wait up to MS milliseconds for another connection's lock"),
        Entry(name: "timer", synopsis: "on|off", help: "Show how long each statement took"),
        Entry(
            name: "width", synopsis: "N…",
            help: "Fix the widths of the first columns in box, table and markdown (negative: align right)"),
    ]

    /// The names, without dots.
    static var names: [String] { entries.map(\.name) }

    /// Other names a dot-command answers to (sqlite3's `.indices`).
    static let aliases: [String: String] = ["indices": "indexes"]

    /// What a typed dot-command name stands for.
    enum Resolution: Equatable {
        /// The command, by its full name.
        case command(String)
        /// No command starts with the name.
        case unknown
        /// Several commands start with the name (their names, sorted).
        case ambiguous([String])
    }

    /// Resolves `typed` as sqlite3 does: a full name (or alias), or else a prefix of exactly one
    /// command (`.head` is `.headers`).
    static func resolve(_ typed: String) -> Resolution {
        if names.contains(typed) { return .command(typed) }
        if let target = aliases[typed] { return .command(target) }
        guard !typed.isEmpty else { return .unknown }
        let matches = Set(names.filter { $0.hasPrefix(typed) } + aliases.filter { $0.key.hasPrefix(typed) }.map(\.value))
        switch matches.count {
        case 0: return .unknown
        case 1: return .command(matches.first ?? typed)
        default: return .ambiguous(matches.sorted())
        }
    }

    /// The dot-commands that take a file path (completion offers paths after them).
    static let fileCommands: Set<String> = [
        "read", "open", "output", "blob", "import", "once", "backup", "save", "restore", "load",
    ]

    /// The dot-commands `--safe` refuses.
    static let unsafeCommands: Set<String> = [
        "read", "open", "output", "blob", "shell", "system", "load", "import", "once", "backup", "restore", "save",
    ]
}
