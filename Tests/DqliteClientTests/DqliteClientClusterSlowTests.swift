import DqliteClient
import Glibc
import TestSupport
import Testing

/// The client against a real 3-node cluster of `dqlite-demo` processes on loopback.
@Suite(.serialized, .enabled(if: DqliteCluster.unavailableReason == nil, "\(DqliteCluster.unavailableReason ?? "")"))
struct DqliteClientClusterSlowTests {
    private func connect(_ cluster: DqliteCluster, database: String = "test", budget: Int = 20_000) throws -> DqliteConnection {
        let addresses = try cluster.nodes.map { try NodeAddress($0.address) }
        return try DqliteConnection(DqliteConfiguration(addresses: addresses, database: database, retryBudget: budget))
    }

    @Test func everyTypeRoundTripsThroughBoundParameters() throws {
        let cluster = try DqliteCluster()
        let connection = try connect(cluster)
        let values: [DqliteValue] = [
            .integer(Int64.min), .integer(Int64.max), .real(-0.0), .real(Double(bitPattern: 1)), .real(.infinity), .text(""),
            .text("naïve 🍷"),
            .blob([]), .blob([0, 1, 254, 255]), .null,
        ]
        try connection.execute("CREATE TABLE t(k INTEGER PRIMARY KEY, v)")
        for (index, value) in values.enumerated() {
            let result = try connection.execute("INSERT INTO t VALUES (?, ?)", [.integer(Int64(index)), value])
            #expect(result.rowsAffected == 1 && result.lastInsertID == Int64(index))
        }
        let rows = try connection.query("SELECT v FROM t ORDER BY k").all()
        #expect(rows.map { $0[0] } == values)
        for (stored, value) in zip(rows, values) {
            if case .real(let a) = stored[0], case .real(let b) = value { #expect(a.bitPattern == b.bitPattern) }
        }
        let echoed = try connection.query("SELECT ?, ?, ?, ?, ?", [.integer(7), .real(2.5), .text("x"), .blob([9]), .null])
        #expect(echoed.columns == ["?", "?", "?", "?", "?"])
        #expect(try echoed.all() == [[.integer(7), .real(2.5), .text("x"), .blob([9]), .null]])
    }

    @Test func rowsSpanManyFramesAndAnAbandonedQueryIsInterrupted() throws {
        let cluster = try DqliteCluster()
        let connection = try connect(cluster)
        try connection.execute("CREATE TABLE n(i INTEGER, s TEXT)")
        try connection.execute(
            "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 100000) INSERT INTO n SELECT i, 'row ' || i FROM c"
        )
        let rows = try connection.query("SELECT i, s FROM n ORDER BY i")
        var count: Int64 = 0
        while let row = try rows.next() {
            count += 1
            #expect(row == [.integer(count), .text("row \(count)")])
            if row[0] != .integer(count) { break }
        }
        #expect(count == 100_000)
        let partial = try connection.query("SELECT i FROM n ORDER BY i")
        #expect(try partial.next() == [.integer(1)])
        try partial.close()
        #expect(try connection.query("SELECT count(*) FROM n").all() == [[.integer(100_000)]])
        let abandoned = try connection.query("SELECT i FROM n")
        #expect(try abandoned.next() != nil)
        #expect(try connection.query("SELECT 42").all() == [[.integer(42)]])
    }

    @Test func preparedStatementsTakeParameters() throws {
        let cluster = try DqliteCluster()
        let connection = try connect(cluster)
        try connection.execute("CREATE TABLE p(a, b)")
        let insert = try connection.prepare("INSERT INTO p VALUES (?, ?)")
        #expect(insert.parameterCount == 2)
        for index in 0..<5 { try connection.execute(insert, [.integer(Int64(index)), .text("v\(index)")]) }
        try connection.finalize(insert)
        let select = try connection.prepare("SELECT b FROM p WHERE a >= ? ORDER BY a")
        #expect(try connection.query(select, [.integer(3)]).all() == [[.text("v3")], [.text("v4")]])
    }

    @Test func failuresCarryTheServerCodeAndSQLiteMessage() throws {
        let cluster = try DqliteCluster()
        let connection = try connect(cluster)
        #expect(throws: DqliteError.server(code: 1, message: "no such table: missing")) {
            try connection.query("SELECT * FROM missing")
        }
        try connection.execute("CREATE TABLE u(x UNIQUE)")
        try connection.execute("INSERT INTO u VALUES (1)")
        do {
            try connection.execute("INSERT INTO u VALUES (1)")
            Issue.record("a duplicate was accepted")
        } catch let error as DqliteError {
            #expect(error.serverCode.map { $0 & 0xff } == 19)
            #expect(error.description == "UNIQUE constraint failed: u.x")
        }
        #expect(try connection.query("SELECT count(*) FROM u").all() == [[.integer(1)]])
    }

    @Test func theLeaderIsFoundFromAFollowerAndPastADeadNode() throws {
        let cluster = try DqliteCluster()
        let leader = try cluster.leaderIndex()
        let follower = (leader + 1) % 3
        let viaFollower = try DqliteConnection(
            DqliteConfiguration(addresses: [try NodeAddress(cluster.nodes[follower].address)], database: "test"))
        #expect(viaFollower.leader?.description == cluster.nodes[leader].address)
        let deadPort = try NodeAddress("127.0.0.1:1")
        let pastDead = try DqliteConnection(
            DqliteConfiguration(addresses: [deadPort] + cluster.nodes.map { try NodeAddress($0.address) }, database: "test"))
        #expect(pastDead.leader?.description == cluster.nodes[leader].address)
    }

    @Test func aKilledLeaderLosesTheOpenTransactionAndTheNewLeaderIsFound() throws {
        let cluster = try DqliteCluster()
        let connection = try connect(cluster)
        try connection.execute("CREATE TABLE k(x)")
        try connection.execute("INSERT INTO k VALUES (1)")
        try connection.execute("BEGIN")
        try connection.execute("INSERT INTO k VALUES (2)")
        let oldLeader = try cluster.leaderIndex()
        cluster.kill(oldLeader)
        do {
            try connection.execute("COMMIT")
            Issue.record("COMMIT succeeded on a dead leader")
        } catch let error as DqliteError {
            #expect(error.isLeadershipLoss)
        }
        #expect(connection.leader == nil)
        #expect(throws: DqliteError.self) { try connection.execute("INSERT INTO k VALUES (3)") }
        let rows = try connection.retrying { try $0.query("SELECT x FROM k ORDER BY x").all() }
        #expect(rows == [[.integer(1)]])
        #expect(connection.leader != nil && connection.leader?.description != cluster.nodes[oldLeader].address)
    }

    @Test func allNodesDownIsAClearErrorWithinTheBudget() throws {
        let cluster = try DqliteCluster()
        cluster.killAll()
        do {
            _ = try connect(cluster, budget: 1500)
            Issue.record("connected to a dead cluster")
        } catch let error as DqliteError {
            guard case .noLeader = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
    }
}
