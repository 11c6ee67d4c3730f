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
        try db.createFunction("empty", argumentCount: 0) { _ in .blob([]) }
        #expect(try db.scalar("SELECT typeof(empty())") == .text("blob"))
    }

    @MainActor final class ProgressView {
        var started: [Int64] = []
    }

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
            if case .started(let migration) = event { await MainActor.run { view.started.append(migration.version) } }
        }
        #expect(await view.started == [1, 2])
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
