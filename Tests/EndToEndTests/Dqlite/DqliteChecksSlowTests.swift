import Glibc
import TestSupport
import Testing

/// The checks before a deploy and the schema planner against a real 3-node dqlite cluster: `lint` and
/// `test` read the pending migrations from the cluster's ledger (`test --against` says the cluster
/// cannot be copied and replays instead), `diff --from dqlite://…` plans from its live schema, and the
/// shell's `.diff` and `.migration` turn DDL typed on the cluster into a migration that `migrate`
/// applies there. None of the checks changes the cluster.
@Suite(.serialized, .enabled(if: DqliteCluster.unavailableReason == nil, "\(DqliteCluster.unavailableReason ?? "")"))
struct DqliteChecksSlowTests {
    static let initial =
        "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT, rating INTEGER);\nCREATE INDEX wines_by_name ON wines (name);"
    /// A hand-written rebuild that forgets the table's index: `lost-object`, and a down that does not
    /// restore it.
    static let rebuild = """
        CREATE TABLE new_wines (id INTEGER PRIMARY KEY, name TEXT, rating REAL);
        INSERT INTO new_wines SELECT * FROM wines;
        DROP TABLE wines;
        ALTER TABLE new_wines RENAME TO wines;
        """

    /// A project whose first migration is applied on the cluster's database `app`, with rows, and two
    /// pending ones: the faulty rebuild and a harmless table.
    private func project(on cluster: DqliteCluster) throws -> DqliteProject {
        let project = DqliteProject()
        try project.migration("0001_init.sql", Self.initial, down: "DROP TABLE wines;")
        let migrated = try project.remote(cluster, "app", ["migrate", "-q"])
        #expect(migrated.status == 0, "\(migrated)")
        let rows = try project.remote(
            cluster, "app", ["run", "-"], input: "INSERT INTO wines (name, rating) VALUES ('a', 4), ('b', 3);\n")
        #expect(rows.status == 0, "\(rows)")
        try project.migration("0002_retype.sql", Self.rebuild, down: "SELECT 1;")
        try project.migration("0003_grapes.sql", "CREATE TABLE grapes (id INTEGER PRIMARY KEY);", down: "DROP TABLE grapes;")
        return project
    }

    /// What the cluster holds: its schema and ledger, as `schema` and `status` print them.
    private func state(_ project: DqliteProject, _ cluster: DqliteCluster) throws -> String {
        let schema = try project.remote(cluster, "app", ["schema"])
        let ledger = try project.remote(
            cluster, "app", ["query", "SELECT version, name FROM cellar_migrations ORDER BY version", "--mode", "list"])
        return schema.output + ledger.output
    }

    @Test func lintAndTestCheckThePendingMigrationsOfTheClusterAndChangeNothing() throws {
        let cluster = try DqliteCluster()
        let project = try project(on: cluster)
        let before = try state(project, cluster)
        #expect(before.contains("1|init") && !before.contains("retype"), "\(before)")

        let lint = try project.remote(cluster, "app", ["lint"])
        #expect(lint.status == 1, "\(lint)")
        #expect(
            lint.output.hasPrefix(
                "migrations/0002_retype.sql:4:1: error[lost-object]: index wines_by_name of table wines is gone after this migration"
            ),
            "\(lint)")
        #expect(lint.error.contains("cellar: lint: 1 error and 0 warnings in 2 migrations"), "only the pending ones: \(lint)")
        let sarif = try project.remote(cluster, "app", ["lint", "--format", "sarif"])
        #expect(sarif.output.contains("\"ruleId\":\"lost-object\""), "\(sarif)")

        let test = try project.remote(cluster, "app", ["test"])
        #expect(test.status == 1, "\(test)")
        #expect(test.output.contains("0002_retype: failed\n"), "\(test)")
        #expect(test.output.contains("  its down does not restore index wines_by_name\n"), "\(test)")
        #expect(test.output.contains("0003_grapes: ok\n"), "\(test)")
        #expect(!test.output.contains("0001_init"), "0001 is applied on the cluster: \(test)")

        let against = try project.cellar(["test", "--against", cluster.url("app"), "--busy-timeout", "30000"])
        #expect(against.status == 1, "\(against)")
        #expect(
            against.error.contains(
                "cellar: a dqlite cluster cannot be copied (dqlite offers no backup API): testing on an in-memory replay of the "
                    + "migrations instead, without row counts"), "\(against)")
        #expect(against.output.contains("0003_grapes: ok\n"), "\(against)")

        #expect(try state(project, cluster) == before, "lint and test changed nothing on the cluster")
    }

    @Test func diffPlansFromTheClustersLiveSchema() throws {
        let cluster = try DqliteCluster()
        let project = try project(on: cluster)
        _ = try project.folder.write(
            "schema.sql",
            "CREATE TABLE wines (id INTEGER PRIMARY KEY, name TEXT, rating REAL);\nCREATE INDEX wines_by_name ON wines (name);\n")
        let diff = try project.cellar(["diff", "--from", cluster.url("app"), "--busy-timeout", "30000"])
        #expect(diff.status == 0, "\(diff)")
        #expect(diff.output.contains("-- rebuild wines: rating INTEGER → REAL; keeps 1 index\n"), "\(diff)")
        #expect(diff.output.contains("CREATE INDEX wines_by_name ON wines (name);\n"), "\(diff)")
        let same = try project.cellar(["diff", "--from", cluster.url("app"), "--to", "migrations", "--exit-code"])
        #expect(same.status == 3, "the cluster is at 0001, the folder builds 0003: \(same)")
        let against = try project.cellar(["diff", "--from", cluster.url("app"), "--against", cluster.url("app")])
        #expect(against.status == 1)
        #expect(against.error.contains("--against needs a database file: a dqlite database cannot be copied"), "\(against)")
    }

    @Test func shellDiffAndMigrationTurnDDLTypedOnTheClusterIntoAMigration() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        try project.migration("0001_init.sql", Self.initial, down: "DROP TABLE wines;")
        #expect(try project.remote(cluster, "app", ["migrate", "-q"]).status == 0)
        let before = try state(project, cluster)
        let typed = "BEGIN;\nALTER TABLE wines ADD COLUMN price REAL DEFAULT 0;\nCREATE INDEX wines_by_price ON wines (price);\n"
        let shell = try project.remote(cluster, "app", ["shell"], input: typed + ".diff\n.migration add_price\n.diff\n")
        #expect(shell.status == 0, "\(shell)")
        #expect(
            shell.output.contains(
                "-- alter table wines: add column price\nALTER TABLE \"wines\" ADD COLUMN price REAL DEFAULT 0;\n"), "\(shell)")
        #expect(
            shell.output.contains(
                "migrations/0002_add_price.sql\nrolled back the open transaction (every change made in it); `cellar migrate` applies "
                    + "migrations/0002_add_price.sql\n-- no schema change since the session opened \(cluster.url("app"))\n"),
            "\(shell)")
        #expect(try state(project, cluster) == before, "the typed DDL was rolled back on the cluster")
        let migrated = try project.remote(cluster, "app", ["migrate", "-q"])
        #expect(migrated.status == 0, "\(migrated)")
        let schema = try project.remote(cluster, "app", ["schema"])
        #expect(schema.output.contains("price REAL DEFAULT 0"), "\(schema)")
        #expect(schema.output.contains("CREATE INDEX wines_by_price ON wines (price);"), "\(schema)")
        #expect(try project.remote(cluster, "app", ["rollback", "-q"]).status == 0)
        #expect(try state(project, cluster) == before, "its down section undoes it")
    }

    /// A virtual table's module creates its shadow tables with it: the local copy of the cluster's schema
    /// (which every remote statement is prepared against) leaves them to the module instead of creating
    /// them a second time ("table docs_data already exists" used to fail every command on such a
    /// database, `diff --from` included).
    @Test func aClusterWithAnFTS5TableIsReadAndPlannedFrom() throws {
        let cluster = try DqliteCluster()
        let project = DqliteProject()
        let fts = "CREATE VIRTUAL TABLE docs USING fts5(body);"
        try project.migration("0001_docs.sql", fts, down: "DROP TABLE docs;")
        let migrated = try project.remote(cluster, "app", ["migrate", "-q"])
        #expect(migrated.status == 0, "\(migrated)")
        let inserted = try project.remote(
            cluster, "app", ["run", "-"], input: "INSERT INTO docs (body) VALUES ('red wine'), ('white wine');\n")
        #expect(inserted.status == 0, "\(inserted)")
        let found = try project.remote(
            cluster, "app", ["query", "SELECT count(*) FROM docs WHERE docs MATCH 'red'", "--mode", "list"])
        #expect(found.status == 0 && found.output == "1\n", "\(found)")
        _ = try project.folder.write("schema.sql", fts + "\n")
        let same = try project.cellar(["diff", "--from", cluster.url("app"), "--exit-code", "--busy-timeout", "30000"])
        #expect(same.status == 0 && same.output.isEmpty, "\(same)")
    }
}
