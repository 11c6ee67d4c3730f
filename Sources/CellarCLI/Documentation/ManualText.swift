/// The parts of the manual that are not in the command table — the file formats, the files cellar
/// reads and writes, the environment and the exit statuses — as data, so that the man page
/// (``ManualPage``) and the Markdown reference (``ReferencePage``) say the same thing.
enum ManualText {
    /// A titled entry: a term and what it means.
    struct Entry: Sendable {
        let term: String
        let text: String
    }

    /// FILE FORMAT: one paragraph per kind of file, in reading order.
    static let fileFormat: [Entry] = [
        Entry(
            term: "Migration files",
            text: """
                migrations/VERSION_NAME.sql, where VERSION is a positive integer of any width (0003 and 3 are \
                the same version; a timestamp such as 20261129120000 is fine) and NAME is letters, digits, _ \
                and -. Files run in the order of their versions as numbers. Two files with one version, or a \
                .sql file whose name does not fit, is an error naming the files, and nothing runs. Other files \
                are ignored.
                """),
        Entry(
            term: "Sections",
            text: """
                A line '-- migrate:up' starts the part that applies the migration and a line '-- migrate:down' \
                the part that undoes it (dbmate's markers); a file with no markers is all up. \
                '-- migrate:up transaction:false' runs the migration outside a transaction (for VACUUM or \
                PRAGMA journal_mode); such a migration is not atomic. Transaction control (BEGIN, COMMIT, END, \
                ROLLBACK without TO) inside a transactional migration is refused before it runs.
                """),
        Entry(
            term: "Checksum",
            text: """
                SHA-256, in lowercase hex, of the up section with CRLF turned into LF and the whitespace at its \
                end dropped: adding a down section later, or a checkout that converts line endings, is not a \
                change. 'cellar status' shows a file whose checksum differs from the recorded one as changed.
                """),
        Entry(
            term: "Seed files",
            text: """
                Every .sql file of seeds/, run in file-name order, each recorded once by its name and the \
                checksum of the whole file. Inside a seed, readfile('path') reads a file as a blob, relative to \
                the seed file's folder.
                """),
        Entry(
            term: "The ledger",
            text: """
                Two tables in the database: cellar_migrations (version, name, checksum, applied_at in UTC ISO \
                8601, duration_ms, kind: applied, baseline, checkpoint or adopted) and cellar_seeds (name, checksum, applied_at). \
                Each migration's row is written in the same transaction as the migration.
                """),
    ]

    /// FILES: the paths cellar reads or writes, with the flag or variable that moves each.
    static let files: [Entry] = [
        Entry(term: "cellar.sqlite", text: "The database when neither -d, CELLAR_DATABASE nor DATABASE_URL names one."),
        Entry(term: "migrations/", text: "The migrations folder (-m, CELLAR_MIGRATIONS)."),
        Entry(term: "seeds/", text: "The seeds folder (--seeds, CELLAR_SEEDS); skipped by setup when it does not exist."),
        Entry(
            term: "DB.YYYYMMDDHHMMSS.vVERSION.bak",
            text: "The backup that --backup writes beside the database (or into --backup-dir) before migrating."),
        Entry(term: "schema.sql", text: "Where 'cellar schema > schema.sql' or --dump-schema schema.sql keeps the schema."),
        Entry(term: "~/.cellar_history", text: "The shell's history, created mode 0600 (CELLAR_HISTORY)."),
        Entry(term: "~/.cellarrc", text: "Statements and dot-commands the shell runs at start when it exists (not with --safe)."),
    ]

    /// ENVIRONMENT: every variable cellar reads. The settings' variables come from the global options.
    static var environment: [Entry] {
        var entries = GlobalOptions.settings.compactMap { setting -> Entry? in
            guard let variable = setting.environmentVariable else { return nil }
            return Entry(
                term: variable,
                text: "Used for --\(setting.option.long) when the option is not given (default \(setting.defaultValue)).")
        }
        entries += [
            Entry(
                term: "DATABASE_URL",
                text:
                    "Used for --database when neither the option nor CELLAR_DATABASE is given: sqlite:PATH, sqlite3:PATH, file:PATH or dqlite://…"
            ),
            Entry(term: "NO_COLOR", text: "When set and not empty, turns colour off unless --color always is given."),
            Entry(term: "CELLAR_HISTORY", text: "The shell's history file (default ~/.cellar_history)."),
            Entry(term: "PAGER", text: "The shell's pager after '.pager on' (default less)."),
            Entry(term: "HOME", text: "Where ~/.cellar_history and ~/.cellarrc are."),
            Entry(term: "TMPDIR", text: "Where 'blob put -' spools a pipe when the database has no folder (dqlite)."),
        ]
        return entries
    }

    /// EXIT STATUS: what each status means.
    static var exitStatuses: [Entry] {
        ExitStatus.allCases.map { Entry(term: "\($0.rawValue)", text: meaning($0)) }
    }

    private static func meaning(_ status: ExitStatus) -> String {
        switch status {
        case .success: "Success."
        case .failure: "An SQL, migration or data error (missing folders and files included)."
        case .usage: "A usage error: an unknown command or option, a missing or bad argument."
        case .workPending: "status --exit-code found pending, changed or missing migrations."
        case .interrupted: "Stopped by SIGINT after rolling back its work."
        case .terminated: "Stopped by SIGTERM after rolling back its work."
        case .outputClosed: "Standard output was a pipe whose reader went away (as SIGPIPE would end it)."
        }
    }
}
