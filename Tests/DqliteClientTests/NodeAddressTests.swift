import Testing

@testable import DqliteClient

struct NodeAddressTests {
    @Test(arguments: [
        ("127.0.0.1:9001", "127.0.0.1", UInt16(9001)), ("localhost:1", "localhost", 1), ("[::1]:9001", "::1", 9001),
    ])
    func parses(text: String, host: String, port: UInt16) throws {
        let address = try NodeAddress(text)
        #expect(address.host == host && address.port == port)
        #expect(address.description == text)
    }

    @Test(arguments: ["", "host", "host:", ":9001", "host:0", "host:70000", "host:port"])
    func refuses(text: String) {
        #expect(throws: DqliteError.invalidAddress(text)) { try NodeAddress(text) }
    }

    @Test func connectingToAClosedPortFailsWithoutAHang() throws {
        let configuration = DqliteConfiguration(
            addresses: [try NodeAddress("127.0.0.1:1")], database: "x", connectTimeout: 200, retryBudget: 300)
        #expect(throws: DqliteError.self) { try DqliteConnection(configuration) }
    }
}
