import CellarKit
import TestSupport
import Testing

/// `.diff` and `.migration` as a person uses them at a terminal (tmux): DDL typed in a transaction,
/// the plan shown, the migration written and the transaction rolled back (the prompt loses its
/// transaction mark), then `cellar migrate` makes the change.
@Suite struct ShellMigrationTerminalTests {
    let folder = TemporaryDirectory()

    init() throws {
        _ = try folder.write(
            "migrations/0001_init.sql",
            "-- migrate:up\nCREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT NOT NULL, rating INTEGER);\n"
                + "-- migrate:down\nDROP TABLE wines;\n")
        let migrated = try Cellar.run(["migrate", "-q", "-d", "app.db"], in: folder.path, timeout: 60)
        #expect(migrated.status == 0, "\(migrated)")
        try Database(path: folder.file("app.db")).execute("INSERT INTO wines (name, rating) VALUES ('Barolo', 4), ('Rioja', 3)")
    }

    @Test func typedRebuildBecomesAMigrationAndTheTransactionIsRolledBack() throws {
        let terminal = try TerminalSession(["shell", "app.db"], in: folder)
        try terminal.waitFor("cellar>")
        // Each line is typed at its own prompt: the screen shows a line as soon as it is typed
        // (`.prompt 'app> '` itself shows "app>"), so only the prompt at the screen's end says that
        // the shell has read the line before it and is reading again.
        try terminal.type(".prompt 'app> '")
        try terminal.waitUntil("the new prompt") { $0.hasSuffix("\napp>") }
        try terminal.type("BEGIN;")
        try terminal.waitFor("app*>")
        try terminal.type("CREATE TABLE new_wines (id INTEGER PRIMARY KEY, name TEXT NOT NULL, rating REAL);")
        try terminal.waitFor("app*>", count: 2)
        try terminal.type("INSERT INTO new_wines SELECT * FROM wines; DROP TABLE wines;")
        try terminal.waitFor("app*>", count: 3)
        try terminal.type("ALTER TABLE new_wines RENAME TO wines;")
        try terminal.waitFor("app*>", count: 4)
        try terminal.type(".diff")
        try terminal.waitUntil("the plan, then the prompt") {
            $0.contains("-- rebuild wines: rating INTEGER → REAL") && $0.hasSuffix("\napp*>")
        }
        try terminal.type(".migration retype_rating")
        let screen = try terminal.waitFor("`cellar migrate` applies migrations/0002_retype_rating.sql")
        #expect(screen.contains("\nmigrations/0002_retype_rating.sql\nrolled back the open transaction"), "\(screen)")
        // The prompt after it has lost the transaction mark (`app*>` while the transaction was open).
        try terminal.waitUntil("the prompt without the transaction mark") {
            $0.hasSuffix("migrations/0002_retype_rating.sql\napp>")
        }
        try terminal.type(".quit")
        try terminal.waitFor("[exit 0]")

        let migrated = try Cellar.run(["migrate", "-q", "-d", "app.db"], in: folder.path, timeout: 60)
        #expect(migrated.status == 0, "\(migrated)")
        let database = try Database(path: folder.file("app.db"))
        #expect(try database.scalar("SELECT type FROM pragma_table_xinfo('wines') WHERE name = 'rating'") == .text("REAL"))
        #expect(try database.scalar("SELECT group_concat(typeof(rating)) FROM wines") == .text("real,real"))
        #expect(try database.scalar("SELECT max(version) FROM cellar_migrations") == .integer(2))
    }
}
