import CellarKit
import Testing

@Suite struct ValueRoundTripTests {
    @Test(arguments: [
        Value.null, .integer(0), .integer(Int64.min), .integer(Int64.max), .real(0.1), .real(-0.0),
        .real(1e308), .real(Double.leastNonzeroMagnitude), .text(""), .text("O'Brien"), .text("葡萄酒 🍷 e\u{301}"),
        .text("nul\u{0}inside"),
        .blob([]), .blob([0, 1, 2, 255]), .blob(Array(repeating: 0xAB, count: 100_000)),
    ])
    func boundValueReadsBackIdentically(value: Value) throws {
        let database = try Database(path: ":memory:")
        try database.execute("CREATE TABLE t (v)")
        try database.execute("INSERT INTO t VALUES (?)", [value])
        let statement = try database.prepare("SELECT v, typeof(v) FROM t")
        #expect(try statement.step())
        #expect(statement.value(at: 0) == value)
        #expect(statement.storageClass(at: 0) == value.storageClass)
        #expect(statement.text(at: 1) == value.storageClass.rawValue)
    }

    @Test func swiftTypesBindAsTheirStorageClass() throws {
        let database = try Database(path: ":memory:")
        let missing: String? = nil
        let row = try #require(
            try database.query(
                "SELECT typeof(?), typeof(?), typeof(?), typeof(?), typeof(?), typeof(?), ?",
                [1, 2.5, "x", true, [UInt8](), missing, true]
            ).first)
        #expect(
            row.values == [
                .text("integer"), .text("real"), .text("text"), .text("integer"), .text("blob"), .text("null"), .integer(1),
            ])
    }

    @Test func namedParametersBindWithEveryPrefix() throws {
        let database = try Database(path: ":memory:")
        let statement = try database.prepare("SELECT :a, @b, $c")
        try statement.bind(1, named: ":a")
        try statement.bind("two", named: "@b")
        try statement.bind(3.0, named: "$c")
        #expect(try statement.step())
        #expect(statement.values == [.integer(1), .text("two"), .real(3)])
        #expect(statement.parameterName(at: 2) == "@b")
        #expect(throws: SQLiteError.self) { try statement.bind(4, named: ":missing") }
    }

    @Test func clearBindingsResetsParametersToNull() throws {
        let database = try Database(path: ":memory:")
        let statement = try database.prepare("SELECT ?")
        try statement.bind(7, at: 1)
        statement.clearBindings()
        #expect(try statement.step())
        #expect(statement.value(at: 0) == .null)
    }

    @Test func columnMetadataDescribesTheResult() throws {
        let database = try WinerySchema.makeDatabase()
        let statement = try database.prepare("SELECT id, name AS title, rating + 1 FROM wine")
        #expect(statement.columnNames == ["id", "title", "rating + 1"])
        #expect(statement.declaredType(at: 0) == "INTEGER")
        #expect(statement.declaredType(at: 1) == "TEXT")
        #expect(statement.declaredType(at: 2) == nil)
        #expect(statement.isReadOnly)
        #expect(statement.sql == "SELECT id, name AS title, rating + 1 FROM wine")
    }
}
