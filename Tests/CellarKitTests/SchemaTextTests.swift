import Testing

@testable import CellarKit

@Suite struct SchemaTextTests {
    @Test(arguments: [
        ("CREATE TABLE wine (id INTEGER)", "create  table\n\"Wine\"(\n  id   integer -- the key\n);"),
        ("CREATE VIEW v AS SELECT a FROM t", "CREATE VIEW [v] AS /* c */ SELECT `a` FROM \"t\""),
        ("CREATE INDEX i ON t (a)", "create index I on T(A);;"),
        ("CREATE TABLE \"odd \"\"name\" (x)", "CREATE TABLE [odd \"name] (x)"),
    ])
    func equivalentSpellingsNormaliseAlike(first: String, second: String) {
        #expect(SchemaText.normalized(first) == SchemaText.normalized(second))
    }

    @Test(arguments: [
        ("CREATE VIEW v AS SELECT 'A'", "CREATE VIEW v AS SELECT 'a'"),
        ("CREATE TABLE t (a, b)", "CREATE TABLE t (a, b, c)"),
        ("CREATE VIEW v AS SELECT 'x -- y'", "CREATE VIEW v AS SELECT 'x'"),
        ("CREATE INDEX i ON t (a)", "CREATE INDEX i ON t (a) WHERE a > 0"),
    ])
    func differentMeaningsStayDifferent(first: String, second: String) {
        #expect(SchemaText.normalized(first) != SchemaText.normalized(second))
    }
}
