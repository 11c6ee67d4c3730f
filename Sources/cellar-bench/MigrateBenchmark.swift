import CellarKit
import Glibc

/// SPEC's migrate row: `cellar migrate` of 1,000 migration files on a fresh database against the same
/// files piped to `sqlite3`, each wrapped in `BEGIN`/`COMMIT` with a version insert.
struct MigrateBenchmarkResult {
    /// Median seconds of `cellar migrate`.
    let cellarSeconds: Double
    /// Median seconds of `sqlite3 db < script`.
    let sqliteSeconds: Double

    /// cellar's time over sqlite3's; SPEC's target is at most 1.3.
    var ratio: Double { cellarSeconds / sqliteSeconds }

    /// One line for the report.
    var line: String {
        "migrate 1,000 files: cellar \(MigrateFormat.milliseconds(cellarSeconds)), sqlite3 \(MigrateFormat.milliseconds(sqliteSeconds)), "
            + "ratio \(MigrateFormat.ratio(ratio)) (target <= 1.30)"
    }
}

/// Runs the migrate benchmark `runs` times, alternating cellar and sqlite3 so that both see the same
/// machine conditions, and returns the medians.
func migrateBenchmark(runs: Int, migrationCount: Int = 1000) throws -> MigrateBenchmarkResult {
    let folder = try MigrateScratch()
    defer { folder.remove() }
    let migrations = folder.path + "/migrations"
    mkdir(migrations, 0o755)
    var script = Ledger.createTable
    for index in 1...migrationCount {
        let version = WallClock.pad(index, to: 4)
        let sql = MigrateWorkload.migration(index)
        try FileContents.write(Array(sql.utf8), to: "\(migrations)/\(version)_step_\(index).sql")
        let checksum = MigrationParser.checksum(of: Array(sql.utf8))
        script += "BEGIN;\n\(sql)INSERT INTO cellar_migrations VALUES (\(index), 'step_\(index)', '\(checksum)', "
        script += "strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 0);\nCOMMIT;\n"
    }
    try FileContents.write(Array(script.utf8), to: folder.path + "/script.sql")
    let cellar = MigrateProcess.cellarExecutable()
    var cellarTimes: [Double] = []
    var sqliteTimes: [Double] = []
    for _ in 0..<runs {
        folder.removeDatabases()
        cellarTimes.append(
            try MigrateProcess.time(
                cellar, ["migrate", "-q", "-d", folder.path + "/a.sqlite", "-m", migrations], input: "/dev/null"))
        sqliteTimes.append(
            try MigrateProcess.time("/usr/bin/sqlite3", [folder.path + "/b.sqlite"], input: folder.path + "/script.sql"))
    }
    return MigrateBenchmarkResult(
        cellarSeconds: MigrateFormat.median(cellarTimes), sqliteSeconds: MigrateFormat.median(sqliteTimes))
}

/// What each generated migration does: a table, an index and a few rows, like a small real upgrade.
private enum MigrateWorkload {
    static func migration(_ index: Int) -> String {
        """
        CREATE TABLE t_\(index) (id INTEGER PRIMARY KEY, name TEXT NOT NULL, created TEXT);
        CREATE INDEX t_\(index)_by_name ON t_\(index) (name);
        INSERT INTO t_\(index) (name, created) VALUES ('a', '2026-11-29'), ('b', '2026-11-29'), ('c', NULL);

        """
    }
}

/// The ledger table of SPEC, created by the sqlite3 side of the comparison.
private enum Ledger {
    static let createTable = """
        CREATE TABLE cellar_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL,
          applied_at TEXT NOT NULL, duration_ms INTEGER NOT NULL);

        """
}

/// A scratch folder for the benchmark's files and databases.
private struct MigrateScratch {
    let path: String

    init() throws {
        var template = Array("/tmp/cellar-bench-migrate-XXXXXX".utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SystemError(operation: "mkdtemp", code: errno)
        }
        path = String(cString: created)
    }

    func removeDatabases() {
        for name in ["a.sqlite", "b.sqlite", "a.sqlite-journal", "b.sqlite-journal"] { unlink(path + "/" + name) }
    }

    func remove() {
        removeDatabases()
        let migrations = path + "/migrations"
        if let names = try? DirectoryListing.fileNames(in: migrations) {
            for name in names { unlink(migrations + "/" + name) }
        }
        rmdir(migrations)
        unlink(path + "/script.sql")
        rmdir(path)
    }
}

/// Spawning and timing the two contenders.
private enum MigrateProcess {
    /// `cellar` beside this executable (`swift run -c release cellar-bench` builds both into one folder).
    static func cellarExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "cellar" }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) + "/cellar"
    }

    /// Wall seconds for `executable arguments < input`, output discarded.
    static func time(_ executable: String, _ arguments: [String], input: String) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let start = WallClock.milliseconds()
        var child: pid_t = 0
        let code = posix_spawn(&child, executable, &actions, nil, argv, environ)
        guard code == 0 else { throw SystemError(operation: "spawn \(executable)", code: code) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        let elapsed = (WallClock.milliseconds() - start) / 1000
        guard status == 0 else { throw SystemError(operation: "\(executable) exited with status \(status)", code: 0) }
        return elapsed
    }
}

/// Numbers as the report prints them.
private enum MigrateFormat {
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func milliseconds(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }

    static func ratio(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(WallClock.pad(hundredths % 100, to: 2))"
    }
}
