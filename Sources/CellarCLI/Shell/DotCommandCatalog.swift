import CellarKit

/// Every dot-command the shell knows, one row each (see ``DotCommand``), and how a typed name
/// resolves to one.
enum DotCommandCatalog {
    /// Every dot-command, in `.help` order.
    static let entries: [DotCommand] = [
        DotCommand(
            "archive", "-c|-u|-i|-r|-t|-x [-v] [-f ARCHIVE] [-C DIR] [FILE…]", aliases: ["ar"],
            abbreviation: .sqlite3(shortest: 2),
            help: "SQLite archives (sqlar, zlib) as sqlite3's: create, update, insert, remove, list, extract",
            refusedWhenSafe: true, writesFiles: true, completion: .paths,
            cluster: .refused(
                "keeps the archive's files compressed with sqlar_compress, a function of this process that a dqlite node lacks")
        ) { try $0.archive($1) },
        DotCommand(
            "backup", "[main] FILE", arity: 1...2,
            abbreviation: .sqlite3(shortest: 3), help: "Copy the database to FILE (SQLite's backup API; FILE is replaced whole)",
            refusedWhenSafe: true,
            writesFiles: true, completion: .paths, cluster: .needsBackupAPI
        ) { try $0.backup($1) },
        DotCommand(
            "bail", "on|off", arity: 1...1, abbreviation: .sqlite3(shortest: 3),
            help: "Stop reading piped input and .read files at the first error"
        ) {
            $0.settings.bails = $0.onOff($1)
        },
        DotCommand(
            "blob", "put|get TABLE COLUMN ROWID FILE",
            help: "Stream FILE into a blob cell (put, --insert) or the cell into FILE (get; - is the output)",
            refusedWhenSafe: true, writesFiles: true, completion: .paths,
            cluster: .refused("streams a blob with SQLite's incremental blob I/O, which dqlite's wire protocol does not offer")
        ) { try $0.transferBlob($1) },
        DotCommand(
            "changes", "on|off", arity: 1...1,
            abbreviation: .sqlite3(shortest: 3),
            help: "Show sqlite3's changes and total_changes after each statement, or nothing (off)"
        ) {
            $0.settings.changes = $0.onOff($1) ? .sqlite3 : .off
        },
        DotCommand("databases", abbreviation: .sqlite3(shortest: 2), help: "List the attached databases and their files") {
            session, _ in
            try session.listDatabases()
        },
        DotCommand(
            "dbinfo", arity: 0...1, abbreviation: .sqlite3(shortest: 3),
            help: "Show the database file's header fields and schema counts",
            cluster: .refused("reads the database file's header, and a dqlite database's files are on the cluster's nodes")
        ) { session, _ in try session.showDatabaseInfo() },
        DotCommand(
            "diff", "[--rename OLD=NEW]… [--allow-drop]",
            help: "The proved SQL from the schema the session opened with to the schema now (as cellar diff)"
        ) { try $0.showSchemaDiff($1) },
        DotCommand(
            "dump", ShellSession.dumpUsage,
            abbreviation: .sqlite3(shortest: 1), help: "The database, or the tables matching the LIKE patterns, as SQL",
            completion: .tables
        ) { try $0.dump($1) },
        DotCommand("echo", "on|off", arity: 1...1, abbreviation: .sqlite3(shortest: 1), help: "Write each command before it runs")
        {
            $0.settings.echoes = $0.onOff($1)
        },
        DotCommand(
            "eqp", "on|off|trigger|full", arity: 1...1,
            abbreviation: .sqlite3(shortest: 2),
            help: "Show the query plan as a tree before each result (trigger: with triggers'; full: and EXPLAIN)",
            completion: .onOff
        ) { $0.setPlanDisplay($1) },
        DotCommand(
            "exit", "[CODE]", abbreviation: .sqlite3(shortest: 2), help: "Leave the shell, with exit status CODE when it is not 0"
        ) {
            session, line in session.requestExit(code: line.arguments.first) ? .quit : .succeeded
        },
        DotCommand(
            "edit", arity: 0...0,
            help: "Edit the last statement (or the one being typed) in $VISUAL or $EDITOR, then run what is saved",
            refusedWhenSafe: true
        ) { session, _ in
            let pending = session.pendingEdit
            session.pendingEdit = nil
            return try session.edit(pending: pending)
        },
        DotCommand(
            "explain", "[on|off|auto]",
            abbreviation: .sqlite3(shortest: 3),
            help: "Lay results out as EXPLAIN listings (on), never (off), or for EXPLAIN only (auto, the default)"
        ) { $0.setExplain($1) },
        DotCommand(
            "fullschema", arity: 0...0, abbreviation: .sqlite3(shortest: 2),
            help: "Show the schema and the ANALYZE statistics (sqlite_stat tables)"
        ) {
            session, _ in
            try session.showFullSchema()
        },
        DotCommand("headers", "on|off", arity: 1...1, abbreviation: .sqlite3(shortest: 1), help: "Show or hide column headers") {
            $0.settings.render.showsHeaders = $0.onOff($1)
        },
        DotCommand(
            "help", "[TOPIC]", arity: 0...1, abbreviation: .sqlite3(shortest: 3),
            help: "Show this list, or the commands TOPIC names"
        ) {
            $0.showHelp($1)
        },
        DotCommand(
            "import", "[--csv|--ascii] [--skip N] [--schema S] FILE|'|COMMAND' TABLE",
            abbreviation: .sqlite3(shortest: 1),
            help: "Insert FILE's records (or COMMAND's output) into TABLE (created from the header row if missing)",
            refusedWhenSafe: true,
            completion: .paths
        ) { try $0.importFile($1) },
        DotCommand(
            "indexes", "[TABLE]", arity: 0...1, aliases: ["indices"],
            abbreviation: .sqlite3(shortest: 2), help: "List indexes, of the tables matching the LIKE pattern TABLE",
            completion: .tables
        ) { try $0.listIndexes(table: $1.pattern) },
        DotCommand(
            "lint", "fkey-indexes", abbreviation: .sqlite3(shortest: 3),
            help: "List foreign keys no index serves, with the CREATE INDEX that would"
        ) {
            try $0.lint($1)
        },
        DotCommand(
            "load", "FILE [ENTRY]", arity: 1...2, abbreviation: .sqlite3(shortest: 1),
            help: "Load an SQLite extension into this connection",
            refusedWhenSafe: true, completion: .paths,
            cluster: .refused(
                "cannot load into a dqlite database: the cluster's nodes run their own SQLite, and cellar cannot load code into them"
            )
        ) { try $0.loadExtension($1) },
        DotCommand(
            "log", "FILE|stdout|stderr|off", arity: 1...1,
            abbreviation: .sqlite3(shortest: 3),
            help: "Write SQLite's error log (errors, warnings such as automatic indexes) to FILE, or stop",
            refusedWhenSafe: true, writesFiles: true, completion: .paths,
            cluster: .refused("shows the log of this process's SQLite, and a dqlite database's statements run in the leader's")
        ) { try $0.setLog($1) },
        DotCommand(
            "maxrows", "N|all|auto",
            help: "Show the first and last N/2 rows of a long result (auto: as many as fit the window, the default)"
        ) {
            try $0.setMaxRows($1)
        },
        DotCommand(
            "migration", "NAME [--rename OLD=NEW]… [--allow-drop] [--timestamp]", arity: 1...Int.max,
            help: "Write .diff as migrations/NNNN_NAME.sql with its down section, then roll the open transaction back",
            refusedWhenSafe: true, writesFiles: true
        ) { try $0.writeMigration($1) },
        DotCommand("migrations", help: "Show every migration: applied, pending, changed or missing") { session, _ in
            try session.showMigrations()
        },
        DotCommand(
            "mode", "MODE",
            abbreviation: .sqlite3(shortest: 1),
            help: "Set the output mode: box, table, markdown, line, list, csv, …; auto: box if it fits, else line",
            completion: .modes
        ) { try $0.setMode($1) },
        DotCommand("nullvalue", "TEXT", arity: 1...1, abbreviation: .sqlite3(shortest: 1), help: "Show NULL as TEXT") {
            $0.settings.render.nullValue = $1.arguments.first ?? ""
        },
        DotCommand(
            "once", "FILE", arity: 0...1, abbreviation: .sqlite3(shortest: 1), help: "Write the next command's output to FILE",
            refusedWhenSafe: true,
            writesFiles: true,
            completion: .paths
        ) { try $0.redirectOnce($1) },
        DotCommand(
            "open", "FILE", arity: 1...1, abbreviation: .sqlite3(shortest: 2),
            help: "Close this database and open FILE (created if missing)",
            refusedWhenSafe: true, writesFiles: true, completion: .paths
        ) { try $0.open($1) },
        DotCommand(
            "output", "[FILE]", arity: 0...1, abbreviation: .sqlite3(shortest: 2),
            help: "Write results to FILE, or back to standard output",
            refusedWhenSafe: true, writesFiles: true, completion: .paths
        ) { try $0.replaceRedirection(with: $1.arguments.first) },
        DotCommand(
            "pager", "on|off|COMMAND",
            help: "Show results taller than the screen in $PAGER (on), in COMMAND, or not (off, the default)"
        ) { try $0.setPager($1) },
        DotCommand(
            "parameter", "set NAME VALUE|list|clear", abbreviation: .sqlite3(shortest: 3),
            help: "Values for :name parameters (also: unset NAME)"
        ) {
            try $0.manageParameters($1)
        },
        DotCommand(
            "print", "TEXT…", abbreviation: .sqlite3(shortest: 3),
            help: "Write TEXT (the arguments, separated by spaces) on a line"
        ) {
            $0.printArguments($1)
        },
        DotCommand(
            "prompt", "MAIN [CONTINUE]", arity: 0...2, abbreviation: .sqlite3(shortest: 1, except: ["pro": "progress"]),
            help: "Set the prompts"
        ) { try $0.setPrompts($1) },
        DotCommand("quit", abbreviation: .sqlite3(shortest: 1), help: "Leave the shell") { session, _ in
            session.requestQuit() ? .quit : .succeeded
        },
        DotCommand(
            "read", "FILE", arity: 1...1, abbreviation: .sqlite3(shortest: 3),
            help: "Run the statements and dot-commands of FILE", refusedWhenSafe: true,
            completion: .paths
        ) { session, line in try session.readFile(line.arguments.first ?? "") },
        DotCommand(
            "restore", "[main] FILE", arity: 1...2, abbreviation: .sqlite3(shortest: 3),
            help: "Replace the database's content with FILE's (SQLite's backup API)",
            refusedWhenSafe: true, completion: .paths, cluster: .needsBackupAPI
        ) { try $0.restore($1) },
        DotCommand(
            "save", "FILE", abbreviation: .sqlite3(shortest: 3), help: "Copy the database to FILE (same as .backup)",
            refusedWhenSafe: true, writesFiles: true,
            completion: .paths, cluster: .needsBackupAPI
        ) { try $0.backup($1) },
        DotCommand(
            "schema", "[PATTERN]", arity: 0...1, abbreviation: .sqlite3(shortest: 3),
            help: "Show the CREATE statements, of names matching the LIKE pattern",
            completion: .tables
        ) { try $0.showSchema(pattern: $1.pattern) },
        DotCommand(
            "separator", "COL [ROW]", arity: 1...2,
            abbreviation: .sqlite3(shortest: 2),
            help: "What list, csv and tsv write between cells and rows (and .import splits on)"
        ) { try $0.setSeparators($1) },
        DotCommand(
            "shell", "CMD", arity: 1...Int.max, abbreviation: .sqlite3(shortest: 2),
            help: "Run CMD with /bin/sh (same as .system)", refusedWhenSafe: true
        ) { try $0.runSystemCommand($1) },
        DotCommand("show", arity: 0...0, abbreviation: .sqlite3(shortest: 3), help: "Show the current settings") { session, _ in
            try session.showSettings()
        },
        DotCommand(
            "stats", "on|off", arity: 1...1, abbreviation: .sqlite3(shortest: 2),
            help: "Show SQLite's counters after each statement",
            cluster: .refused(
                "shows the counters of this process's SQLite, and a dqlite database's statements run in the leader's")
        ) { $0.settings.showsStats = $0.onOff($1) },
        DotCommand(
            "system", "CMD", arity: 1...Int.max, abbreviation: .sqlite3(shortest: 2),
            help: "Run CMD with /bin/sh (same as .shell)", refusedWhenSafe: true
        ) { try $0.runSystemCommand($1) },
        DotCommand(
            "tables", "[PATTERN]", abbreviation: .sqlite3(shortest: 2), help: "List tables and views, matching the LIKE pattern",
            completion: .tables
        ) { try $0.listTables(pattern: $1.pattern) },
        DotCommand(
            "timeout", "MS", arity: 0...1, abbreviation: .sqlite3(shortest: 5),
            help: "Wait up to MS milliseconds for another connection's lock",
            cluster: .refused(
                "cannot change the wait of a dqlite database: it is the busy timeout cellar connected with (--busy-timeout)")
        ) { try $0.setTimeout($1) },
        DotCommand(
            "trace", "stdout|stderr|off", arity: 0...1, abbreviation: .sqlite3(shortest: 1),
            help: "Write each statement SQLite runs, as it starts",
            cluster: .refused("traces this process's SQLite, and a dqlite database's statements run in the leader's")
        ) { try $0.setTrace($1) },
        DotCommand(
            "timer", "on|off", arity: 1...1, abbreviation: .sqlite3(shortest: 5), help: "Show how long each statement took"
        ) {
            $0.settings.showsTimer = $0.onOff($1)
        },
        DotCommand(
            "width", "N…", abbreviation: .sqlite3(shortest: 1),
            help: "Fix the widths of the first columns in box, table and markdown (negative: align right)"
        ) { try $0.setWidths($1) },
    ]

    /// The names, without dots.
    static let names: [String] = entries.map(\.name)

    /// The commands `--safe` refuses (dotted, in `.help` order), for the help text.
    static let refusedWhenSafe: [String] = entries.filter(\.isRefusedWhenSafe).map { "." + $0.name }

    /// The commands a dqlite database refuses (dotted, in `.help` order), for the help text.
    static let refusedOnCluster: [String] = entries.filter { $0.cluster.refusal(of: $0.name, url: "") != nil }.map {
        "." + $0.name
    }

    /// `items` as a list in prose: `a, b and c`.
    static func prose(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// The row of the command named `name` in full.
    static func entry(_ name: String) -> DotCommand? {
        entries.first { $0.name == name }
    }

    /// What a typed dot-command name stands for.
    enum Resolution: Equatable {
        /// The command, by its full name.
        case command(String)
        /// No command starts with the name.
        case unknown
        /// Several commands start with the name (their names, sorted).
        case ambiguous([String])
        /// Only `command` starts with the name, a command sqlite3 shares, and sqlite3 does not take
        /// the name for it: too short, or (`taken`) the name of another sqlite3 command cellar lacks.
        case refused(command: String, taken: String?)
    }

    /// Resolves `typed` as sqlite3 3.40 does: a full name (or alias), else the shared command whose
    /// sqlite3 abbreviation it is (`.ex` is `.exit`, `.m` is `.mode`), else a prefix of exactly one
    /// command (`.ma` is cellar's `.maxrows`).
    static func resolve(_ typed: String) -> Resolution {
        guard !typed.isEmpty else { return .unknown }
        if let row = entries.first(where: { $0.spellings.contains(typed) }) { return .command(row.name) }
        if let row = entries.first(where: { $0.takes(typed) }) { return .command(row.name) }
        let matches = entries.filter { $0.isNamed(startingWith: typed) }
        guard matches.count == 1, let row = matches.first else {
            return matches.isEmpty ? .unknown : .ambiguous(matches.map(\.name).sorted())
        }
        guard case .sqlite3(_, let except) = row.abbreviation else { return .command(row.name) }
        return .refused(command: row.name, taken: except[typed])
    }

    /// The shortest prefix of `name`, longer than `length` characters, that sqlite3 takes for it.
    static func shortestAbbreviation(of name: String, longerThan length: Int = 0) -> String {
        guard let row = entry(name), length < name.count else { return name }
        return (length + 1...name.count).lazy.map { String(name.prefix($0)) }.first(where: row.takes) ?? name
    }
}
