import CellarKit
import Glibc
import TestSupport
import Testing

/// Values and errors an app can use: a closed connection that throws instead of crashing, typed reads,
/// empty blobs, Sendable events, widths without process-wide locale changes.
@Suite struct ValuesAndErrorsTests {
    @Test func aClosedDatabaseThrowsOnEveryUse() throws {
        let db = try Database(path: ":memory:")
        try db.close()
        let uses: [(String, () throws -> Void)] = [
            ("isAutocommit", { _ = try db.isAutocommit }),
            ("changes", { _ = try db.changes }),
            ("totalChanges", { _ = try db.totalChanges }),
            ("lastInsertRowID", { _ = try db.lastInsertRowID }),
            ("isReadOnly", { _ = try db.isReadOnly }),
            ("liveStatementCount", { _ = try db.liveStatementCount }),
            ("execute", { try db.execute("SELECT 1") }),
            ("query", { _ = try db.query("SELECT 1") }),
            ("prepare", { _ = try db.prepare("SELECT 1") }),
            ("transaction", { try db.transaction {} }),
            ("setAuthorizer", { try db.setAuthorizer { _ in .allow } }),
            ("setProgressHandler", { try db.setProgressHandler(every: 1) { false } }),
            ("trace", { try db.trace { _ in } }),
            ("setBusyTimeout", { try db.setBusyTimeout(1) }),
            ("register", { try db.register(SQLFunction("f", argumentCount: 0) { _ in .null }) }),
            ("schemaSQL", { _ = try db.schemaSQL() }),
            ("migrate", { try Migrator(database: db, migrations: []).migrate() }),
        ]
        for (name, use) in uses {
            let error = #expect(throws: SQLiteError.self, "\(name)") { try use() }
            #expect(error?.resultCode == .misuse, "\(name)")
        }
        db.rollbackIfNeeded()
        db.interrupt()
    }

    @Test func rowsDecodeByNameAndIndex() throws {
        let db = try Database(path: ":memory:")
        let row = try #require(
            try db.query("SELECT 'Ridge' AS name, 4 AS rating, NULL AS note, 2.5 AS price, x'00ff' AS label").first)
        #expect(try row.decode(String.self, "name") == "Ridge")
        #expect(try row.decode(Int.self, "rating") == 4)
        #expect(try row.decode(Int?.self, "note") == nil)
        #expect(try row.decode(Double.self, at: 3) == 2.5)
        #expect(try row.decode([UInt8].self, "label") == [0, 255])
        #expect(try row.decode(Bool.self, "rating"))
        // The type can come from the context, as the README and the example app write it.
        let name: String = try row.decode("name")
        let price: Double = try row.decode(at: 3)
        #expect(name == "Ridge" && price == 2.5)
        let missing = #expect(throws: RowDecodingError.self) { try row.decode(String.self, "vintage") }
        #expect(missing?.description.hasPrefix("no column vintage") == true)
        let mismatch = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, "name") }
        #expect(mismatch?.description == "column name holds text, which does not decode as Int")
        #expect(throws: RowDecodingError.self) { try row.decode(String.self, "note") }
        #expect(throws: RowDecodingError.self) { try row.decode(Int.self, "price") }
    }

    @Test func anEmptyBlobBindsAsABlobNotNull() throws {
        let db = try Database(path: ":memory:")
        let row = try #require(try db.query("SELECT typeof(?), length(?)", [[UInt8](), [UInt8]()]).first)
        #expect(row.values == [.text("blob"), .integer(0)])
        // Swift's empty arrays happen to have an address; bytes without one must bind as a blob too.
        let statement = try db.prepare("SELECT typeof(?1), length(?1)")
        try statement.bindBlob(UnsafeRawBufferPointer(start: nil, count: 0), at: 1)
        #expect(try statement.step())
        #expect(statement.value(at: 0) == .text("blob") && statement.value(at: 1) == .integer(0))
        try db.createFunction("empty", argumentCount: 0) { _ in .blob([]) }
        #expect(try db.scalar("SELECT typeof(empty())") == .text("blob"))
        // Stored and read back, each is still an empty blob (sqlite3_column_blob gives no pointer for it).
        try db.execute("CREATE TABLE t(b); INSERT INTO t VALUES (?), (empty()), (x'')", [[UInt8]()])
        let stored = try db.query("SELECT b, typeof(b) FROM t").map(\.values)
        #expect(stored == Array(repeating: [.blob([]), .text("blob")], count: 3))
    }

    @MainActor final class ProgressView {
        var started: [Int64] = []

        func record(_ event: MigrationEvent) {
            if case .started(let migration) = event { started.append(migration.version) }
        }
    }

    /// The events themselves cross to the main actor, as a progress view takes them.
    @Test func migrationEventsCanBeForwardedToTheMainActor() async throws {
        let project = try MigrationProject(["1_wineries.sql": wineries, "2_wine.sql": wine])
        let view = ProgressView()
        let (stream, continuation) = AsyncStream.makeStream(of: MigrationEvent.self)
        let database = try project.open()
        let migrator = try project.migrator(database)
        migrator.observer = { continuation.yield($0) }
        try migrator.migrate()
        continuation.finish()
        for await event in stream {
            await MainActor.run { view.record(event) }
        }
        #expect(await view.started == [1, 2])
    }

    /// Compiles only for a `Sendable` type: removing one of the conformances below breaks the build of
    /// the tests (checked: without it on `MigrationEvent`, this line is the error).
    private func requireSendable<T: Sendable>(_: T.Type) -> String { "\(T.self)" }

    @Test func valuesThatCrossConcurrencyDomainsAreSendable() {
        let names = [
            requireSendable(MigrationEvent.self), requireSendable(MigrationOutcome.self),
            requireSendable(MigrationStatus.self), requireSendable(MigrationError.self), requireSendable(Diagnostic.self),
            requireSendable(SQLiteError.self), requireSendable(Seeder.Status.self), requireSendable(Seeder.Outcome.self),
            requireSendable(ScriptRunner.Summary.self), requireSendable(Row.self), requireSendable(Value.self),
            requireSendable(RenderSummary.self), requireSendable(Interrupter.self),
        ]
        #expect(names.first == "MigrationEvent" && names.count == 13)
    }

    @Test func widthsAreRightInTheCLocaleAndTheProcessLocaleIsLeftAlone() throws {
        #expect(String(cString: setlocale(LC_CTYPE, nil)) == "C")
        let db = try Database(path: ":memory:")
        let sink = BufferSink()
        let renderer = ResultRenderer(sink: sink, options: RenderOptions(mode: .box))
        try renderer.render(
            try db.prepare("SELECT '漢字' AS a UNION ALL SELECT '🍷' UNION ALL SELECT 'e\u{301}' UNION ALL SELECT 'ab'"))
        try renderer.flush()
        let lines = sink.text.split(separator: "\n").map { String($0) }
        #expect(lines.contains("│ 漢字 │"), "\(sink.text)")
        #expect(lines.contains("│ 🍷   │"), "\(sink.text)")
        #expect(lines.contains("│ e\u{301}    │"), "\(sink.text)")
        #expect(String(cString: setlocale(LC_CTYPE, nil)) == "C", "rendering changed the process's locale")
    }
}
