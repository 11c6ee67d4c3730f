import Testing

@testable import CellarCLI

@Suite struct DatabaseURLTests {
    private let parser = ArgumentParser(globalOptions: GlobalOptions.options)

    @Test(arguments: [
        ("sqlite:db/app.sqlite", "db/app.sqlite"),
        ("sqlite3:app.db", "app.db"),
        ("file:app.db", "app.db"),
        ("sqlite:/srv/app.db", "/srv/app.db"),
        ("sqlite://srv/app.db", "/srv/app.db"),
        ("sqlite:///srv/app.db", "/srv/app.db"),
        ("SQLITE:///srv/app.db", "/srv/app.db"),
        ("file:///srv/app.db", "/srv/app.db"),
        ("file://localhost/srv/app.db", "/srv/app.db"),
        ("sqlite:my%20data/app.db", "my data/app.db"),
        ("sqlite:///srv/app.db?mode=ro", "file:/srv/app.db?mode=ro"),
        ("dqlite://127.0.0.1:9001,127.0.0.1:9002/app", "dqlite://127.0.0.1:9001,127.0.0.1:9002/app"),
    ])
    func dbmateFormsBecomePaths(url: String, path: String) throws {
        #expect(try DatabaseURL.path(from: url) == path)
    }

    @Test(arguments: [
        ("postgres://localhost/app", "DATABASE_URL has scheme 'postgres', which cellar does not support"),
        ("mysql:x", "DATABASE_URL has scheme 'mysql', which cellar does not support"),
        ("app.db", "DATABASE_URL 'app.db' has no scheme"),
        ("sqlite:", "DATABASE_URL 'sqlite:' names no database file"),
    ])
    func otherURLsAreErrorsNamingTheProblem(url: String, message: String) {
        #expect {
            try DatabaseURL.path(from: url)
        } throws: { error in
            (error as? UsageError)?.message.hasPrefix(message) == true
        }
    }

    @Test func databaseURLIsReadOnlyWhenNeitherFlagNorCellarDatabaseIsGiven() throws {
        func path(_ arguments: [String], _ environment: [String: String]) throws -> String {
            try Configuration(parser.parse(arguments, for: nil), environment: environment, isErrorTerminal: false).databasePath
        }
        let url = ["DATABASE_URL": "sqlite:url.db"]
        #expect(try path([], url) == "url.db")
        #expect(try path([], url.merging(["CELLAR_DATABASE": "env.db"]) { $1 }) == "env.db")
        #expect(try path(["-d", "flag.db"], url.merging(["CELLAR_DATABASE": "env.db"]) { $1 }) == "flag.db")
        #expect(try path([], ["DATABASE_URL": ""]) == "cellar.sqlite")
        #expect(try path(["-d", "dqlite://h:1/db"], [:]) == "dqlite://h:1/db")
        #expect(try path([], ["DATABASE_URL": "dqlite://h:1,h:2/db"]) == "dqlite://h:1,h:2/db")
    }
}
