import TestSupport

/// A migrations folder for cluster tests, and cellar run on it against a cluster or a local file.
struct DqliteProject {
    let folder = TemporaryDirectory()

    /// Writes `migrations/NAME` with an up section of `up`.
    func migration(_ name: String, _ up: String, down: String? = nil) throws {
        var text = "-- migrate:up\n\(up)\n"
        if let down { text += "-- migrate:down\n\(down)\n" }
        try folder.write("migrations/\(name)", text)
    }

    /// Writes `count` migrations, each creating a table and logging itself under a primary key in
    /// `runs`, so that a migration applied twice fails loudly.
    func loggedMigrations(_ count: Int) throws {
        try migration("0001_runs.sql", "CREATE TABLE runs(version INTEGER PRIMARY KEY);\nINSERT INTO runs VALUES (1);")
        for version in 2...max(2, count) {
            let padded = String(repeating: "0", count: 4 - String(version).count) + String(version)
            try migration(
                "\(padded)_t\(version).sql",
                "CREATE TABLE t\(version)(id INTEGER PRIMARY KEY, note TEXT);\n"
                    + "INSERT INTO t\(version)(note) VALUES ('a'), ('b');\n"
                    + "CREATE INDEX t\(version)_note ON t\(version)(note);\n"
                    + "INSERT INTO runs VALUES (\(version));")
        }
    }

    /// `cellar ARGS` in the project folder, reading `input` when given.
    func cellar(_ arguments: [String], environment: [String: String] = [:], input: String? = nil, timeout: Double = 120)
        throws -> ChildProcess.Result
    {
        try Cellar.run(arguments, in: folder.path, input: input, environment: environment, timeout: timeout)
    }

    /// `cellar -d URL ARGS` with a generous busy timeout (a leader election takes seconds).
    func remote(
        _ cluster: DqliteCluster, _ name: String, _ arguments: [String], busyTimeout: Int = 30_000, input: String? = nil
    ) throws -> ChildProcess.Result {
        try cellar(["-d", cluster.url(name), "--busy-timeout", String(busyTimeout)] + arguments, input: input)
    }

    /// `cellar -d FILE ARGS` on a local file of the project.
    func local(_ file: String, _ arguments: [String], input: String? = nil) throws -> ChildProcess.Result {
        try cellar(["-d", folder.file(file)] + arguments, input: input)
    }
}
