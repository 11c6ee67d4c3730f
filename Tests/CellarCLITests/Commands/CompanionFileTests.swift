import CellarKit
import Glibc
import TestSupport
import Testing

/// A single `-d` naming the `-wal`, `-shm` or `-journal` file of an existing database is refused by
/// every command that opens a database, as a fleet's entry is: SQLite would open an idle database's
/// empty `-wal` as an empty database (or create it), and writing into a live database's write-ahead
/// log corrupts that database at its next checkpoint.
@Suite struct CompanionFileTests {
    @Test(arguments: [
        ["migrate"], ["setup"], ["status"], ["verify"], ["rollback"], ["baseline", "1"], ["seed"], ["schema"], ["dump"],
        ["query", "SELECT 1"], ["run", "s.sql"], ["shell"], ["blob", "get", "app", "x", "1", "out"], ["create"],
        ["drop", "--force"], ["wait", "--timeout", "1"], ["restore", "backup.sqlite"], ["migrate", "--dry-run"],
        ["lint", "--against", "DATABASE"], ["test", "--against", "DATABASE"],
    ])
    func aCompanionFileNamedAsTheDatabaseIsRefusedAndLeftAlone(command: [String]) throws {
        for (suffix, role) in [("-wal", "write-ahead log"), ("-shm", "shared-memory index"), ("-journal", "rollback journal")] {
            let folder = TemporaryDirectory()
            try folder.write("migrations/0001_a.sql", "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n")
            try folder.write("seeds/0001_s.sql", "INSERT INTO a VALUES (1);\n")
            try folder.write("s.sql", "CREATE TABLE b (x);\n")
            let database = folder.file("app.sqlite")
            try Database(path: database).execute("CREATE TABLE app (x)")
            try Database(path: folder.file("backup.sqlite")).execute("CREATE TABLE app (x)")
            let companion = database + suffix
            // An idle database's `-wal` is an empty file; a missing one SQLite would create.
            if suffix != "-journal" { try folder.write("app.sqlite" + suffix, "") }
            let arguments = command.map { argument in
                switch argument {
                case "s.sql", "out", "backup.sqlite": folder.file(argument)
                case "DATABASE": companion
                default: argument
                }
            }
            let run = InProcessRun(
                arguments + ["-m", folder.file("migrations"), "--seeds", folder.file("seeds"), "-d", companion],
                input: "CREATE TABLE c (x);\n")
            #expect(run.status == 1, "\(command) \(suffix): \(run)")
            #expect(
                run.error.contains(
                    "'\(companion)' is the \(role) of the database '\(database)', not a database; it was not opened "
                        + "(name '\(database)' instead)"), "\(command) \(suffix): \(run)")
            var status = stat()
            let size = stat(companion, &status) == 0 ? Int(status.st_size) : nil
            #expect(size == (suffix == "-journal" ? nil : 0), "\(command) \(suffix): the file was written or made")
            #expect(!FileBytes.exists(folder.file("out")))
        }
    }
}
