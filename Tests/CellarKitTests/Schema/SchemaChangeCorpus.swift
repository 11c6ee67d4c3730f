@testable import CellarKit

/// One classic schema change, with rows in the tables: the schema before, its rows, the desired
/// schema, and what the planner may do.
struct SchemaChangeCase: CustomStringConvertible, Sendable {
    let name: String
    let from: String
    let rows: String
    let to: String
    var renames: [String] = []
    var allowsDrop = false
    /// The start of the error the planner must refuse with, or nil when the plan must apply.
    var refusal: String? = nil
    /// SQL run after the migration whose single value must be 1: a trigger fired, a default applied.
    var probe: String? = nil
    /// Whether a naive rebuild (no indexes, triggers or views recreated, no counter carried, foreign
    /// keys on) loses something here, so that the checks must fail for it.
    var naiveLoses = false

    var description: String { name }
}

/// The corpus: one case per pattern that hand-written SQLite migrations get wrong.
enum SchemaChangeCorpus {
    static let wines = """
        CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT);
        CREATE INDEX wines_by_rating ON wines (rating);
        CREATE UNIQUE INDEX wines_by_name ON wines (name);
        CREATE TABLE tastings (id INTEGER PRIMARY KEY, wine_id INTEGER NOT NULL REFERENCES wines (id) ON DELETE CASCADE, note TEXT);
        CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT);
        CREATE VIEW rated AS SELECT name, rating FROM wines WHERE rating IS NOT NULL;
        CREATE TRIGGER wines_audit AFTER UPDATE ON wines BEGIN INSERT INTO audit (what) VALUES ('updated ' || new.name); END;
        """

    static let wineRows = """
        INSERT INTO wines (name, rating, region) VALUES ('Barolo', 4, 'Piedmont'), ('Rioja', 3, 'Rioja'), ('Chablis', NULL, 'Burgundy'), ('Gone', 1, NULL);
        DELETE FROM wines WHERE name = 'Gone';
        INSERT INTO tastings (wine_id, note) VALUES (1, 'tar and roses'), (1, 'again'), (2, 'vanilla'), (3, 'flint');
        """

    /// `wines` with its definition line replaced by `definition`; the rest as in ``wines``.
    static func winesWith(_ definition: String) -> String {
        wines.replacing(
            "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT);",
            with: definition)
    }

    /// A probe that updates a wine and checks that the audit trigger fired.
    static let triggerFires = "UPDATE wines SET name = name WHERE id = 1; SELECT count(*) = 1 FROM audit"

    static let cases: [SchemaChangeCase] = [
        SchemaChangeCase(
            name: "type change", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating REAL, region TEXT);"),
            probe: triggerFires, naiveLoses: true),
        SchemaChangeCase(
            name: "CHECK added", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER CHECK (rating BETWEEN 0 AND 5), region TEXT);"
            ), naiveLoses: true),
        SchemaChangeCase(
            name: "NOT NULL added", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT NOT NULL DEFAULT 'unknown');"
            ), naiveLoses: true),
        SchemaChangeCase(
            name: "expression default", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT, added INTEGER DEFAULT (strftime('%s', 'now')));"
            ),
            probe: "INSERT INTO wines (name) VALUES ('Fresh'); SELECT typeof(added) = 'integer' FROM wines WHERE name = 'Fresh'",
            naiveLoses: true),
        SchemaChangeCase(
            name: "default changed", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER DEFAULT 3, region TEXT);"
            ),
            probe: "INSERT INTO wines (name) VALUES ('Fresh'); SELECT rating = 3 FROM wines WHERE name = 'Fresh'",
            naiveLoses: true),
        SchemaChangeCase(
            name: "columns reordered", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, region TEXT, name TEXT NOT NULL, rating INTEGER);"),
            naiveLoses: true),
        SchemaChangeCase(
            name: "AUTOINCREMENT counter kept", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL COLLATE NOCASE, rating INTEGER, region TEXT);"
            ),
            probe: "INSERT INTO wines (name) VALUES ('Next'); SELECT id = 5 FROM wines WHERE name = 'Next'", naiveLoses: true),
        SchemaChangeCase(
            name: "AUTOINCREMENT added", from: "CREATE TABLE tags (id INTEGER PRIMARY KEY, label TEXT);",
            rows: "INSERT INTO tags (label) VALUES ('red'), ('white');",
            to: "CREATE TABLE tags (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT);",
            probe: "SELECT seq = 2 FROM sqlite_sequence WHERE name = 'tags'"),
        SchemaChangeCase(
            name: "STRICT", from: "CREATE TABLE scores (id INTEGER PRIMARY KEY, points INTEGER, label TEXT);",
            rows: "INSERT INTO scores (points, label) VALUES (10, 'a'), (20, 'b');",
            to: "CREATE TABLE scores (id INTEGER PRIMARY KEY, points INTEGER, label TEXT) STRICT;"),
        SchemaChangeCase(
            name: "WITHOUT ROWID", from: "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT);",
            rows: "INSERT INTO settings VALUES ('theme', 'dark'), ('lang', 'en');",
            to: "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;"),
        SchemaChangeCase(
            name: "foreign key added with cascade children present", from: wines, rows: wineRows,
            to: wines.replacing(
                "CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT);",
                with:
                    "CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT, wine_id INTEGER REFERENCES wines (id) ON DELETE SET NULL);"
            )
            .replacing(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT);",
                with:
                    "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT, CHECK (name <> ''));"
            ),
            naiveLoses: true),
        SchemaChangeCase(
            name: "foreign key changed on the child", from: wines, rows: wineRows,
            to: wines.replacing("REFERENCES wines (id) ON DELETE CASCADE", with: "REFERENCES wines (id) ON DELETE RESTRICT"),
            probe: "SELECT count(*) = 4 FROM tastings"),
        SchemaChangeCase(
            name: "parent rebuilt under cascade children", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT COLLATE NOCASE);"
            ),
            probe: "SELECT count(*) = 4 FROM tastings", naiveLoses: true),
        SchemaChangeCase(
            name: "view over a view over the rebuilt table",
            from: wines + "\nCREATE VIEW top AS SELECT name FROM rated WHERE rating >= 4;",
            rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating REAL, region TEXT);")
                + "\nCREATE VIEW top AS SELECT name FROM rated WHERE rating >= 4;",
            probe: "SELECT count(*) = 1 FROM top", naiveLoses: true),
        SchemaChangeCase(
            name: "trigger of another table that writes the rebuilt one",
            from: wines
                + "\nCREATE TRIGGER tasting_bumps AFTER INSERT ON tastings BEGIN UPDATE wines SET rating = rating WHERE id = new.wine_id; END;",
            rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating REAL, region TEXT);")
                + "\nCREATE TRIGGER tasting_bumps AFTER INSERT ON tastings BEGIN UPDATE wines SET rating = rating WHERE id = new.wine_id; END;",
            probe: "INSERT INTO tastings (wine_id, note) VALUES (2, 'more'); SELECT count(*) = 5 FROM audit", naiveLoses: true),
        SchemaChangeCase(
            name: "a table both parent and child",
            from: """
                CREATE TABLE regions (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE cellars (id INTEGER PRIMARY KEY, region_id INTEGER REFERENCES regions (id) ON DELETE CASCADE, parent_id INTEGER REFERENCES cellars (id) ON DELETE CASCADE, name TEXT);
                CREATE TABLE bottles (id INTEGER PRIMARY KEY, cellar_id INTEGER REFERENCES cellars (id) ON DELETE CASCADE);
                """,
            rows: """
                INSERT INTO regions VALUES (1, 'north');
                INSERT INTO cellars VALUES (1, 1, NULL, 'main'), (2, 1, 1, 'annex');
                INSERT INTO bottles VALUES (1, 1), (2, 2), (3, 2);
                """,
            to: """
                CREATE TABLE regions (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE cellars (id INTEGER PRIMARY KEY, region_id INTEGER REFERENCES regions (id) ON DELETE CASCADE, parent_id INTEGER REFERENCES cellars (id) ON DELETE CASCADE, name TEXT NOT NULL DEFAULT '');
                CREATE TABLE bottles (id INTEGER PRIMARY KEY, cellar_id INTEGER REFERENCES cellars (id) ON DELETE CASCADE);
                """,
            naiveLoses: true),
        SchemaChangeCase(
            name: "partial index on the rebuilt table",
            from: wines + "\nCREATE INDEX unrated ON wines (name) WHERE rating IS NULL;", rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating REAL, region TEXT);")
                + "\nCREATE INDEX unrated ON wines (name) WHERE rating IS NULL;",
            naiveLoses: true),
        SchemaChangeCase(
            name: "partial index changed", from: wines + "\nCREATE INDEX unrated ON wines (name) WHERE rating IS NULL;",
            rows: wineRows, to: wines + "\nCREATE INDEX unrated ON wines (name, region) WHERE rating IS NULL;"),
        SchemaChangeCase(
            name: "virtual generated column", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT, label TEXT GENERATED ALWAYS AS (name || ' (' || region || ')'));"
            ), probe: "SELECT label = 'Barolo (Piedmont)' FROM wines WHERE id = 1"),
        SchemaChangeCase(
            name: "stored generated column", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT, stars TEXT AS (substr('*****', 1, rating)) STORED);"
            ), probe: "SELECT stars = '****' FROM wines WHERE id = 1", naiveLoses: true),
        SchemaChangeCase(
            name: "column added with ADD COLUMN", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT, price REAL NOT NULL DEFAULT 0);"
            ),
            probe: "SELECT price = 0 FROM wines WHERE id = 1"),
        SchemaChangeCase(
            name: "new table, index and view", from: wines, rows: wineRows,
            to: wines
                + "\nCREATE TABLE grapes (id INTEGER PRIMARY KEY, name TEXT);\nCREATE INDEX grapes_by_name ON grapes (name);\n"
                + "CREATE VIEW grape_names AS SELECT name FROM grapes;"),
        SchemaChangeCase(
            name: "table renamed with --rename", from: wines, rows: wineRows,
            to: wines.replacing("CREATE TABLE wines (", with: "CREATE TABLE bottles (").replacing(
                "REFERENCES wines", with: "REFERENCES bottles"
            )
            .replacing("ON wines", with: "ON bottles").replacing("FROM wines", with: "FROM bottles"),
            renames: ["wines=bottles"],
            probe: "UPDATE bottles SET name = name WHERE id = 1; SELECT count(*) = 1 FROM audit"),
        SchemaChangeCase(
            name: "column renamed with --rename", from: wines, rows: wineRows,
            to: wines.replacing("rating INTEGER, region", with: "score INTEGER, region").replacing("(rating)", with: "(score)")
                .replacing("name, rating FROM wines WHERE rating IS", with: "name, score FROM wines WHERE score IS"),
            renames: ["wines.rating=score"], probe: "SELECT count(*) = 2 FROM rated"),
        SchemaChangeCase(
            name: "column dropped without --allow-drop", from: wines, rows: wineRows,
            to: winesWith("CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER);"),
            refusal: "the plan would drop column wines.region"),
        SchemaChangeCase(
            name: "column dropped with --allow-drop", from: wines, rows: wineRows,
            to: winesWith("CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER);"),
            allowsDrop: true),
        SchemaChangeCase(
            name: "indexed column dropped with --allow-drop (a rebuild)", from: wines, rows: wineRows,
            to: winesWith("CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, region TEXT);")
                .replacing("CREATE INDEX wines_by_rating ON wines (rating);\n", with: "")
                .replacing("CREATE VIEW rated AS SELECT name, rating FROM wines WHERE rating IS NOT NULL;\n", with: ""),
            allowsDrop: true, probe: triggerFires),
        SchemaChangeCase(
            name: "table dropped without --allow-drop",
            from: wines + "\nCREATE TABLE old_notes (id INTEGER PRIMARY KEY, body TEXT);",
            rows: wineRows + "INSERT INTO old_notes (body) VALUES ('x');",
            to: wines + "\nCREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);",
            refusal: "the plan would drop table old_notes"),
        SchemaChangeCase(
            name: "table dropped with --allow-drop",
            from: wines + "\nCREATE TABLE old_notes (id INTEGER PRIMARY KEY, body TEXT);",
            rows: wineRows + "INSERT INTO old_notes (body) VALUES ('x');", to: wines, allowsDrop: true),
        SchemaChangeCase(
            name: "new NOT NULL column without default", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT, vintage INTEGER NOT NULL);"
            ),
            refusal: "column wines.vintage is new, NOT NULL and has no default"),
        SchemaChangeCase(
            name: "UNIQUE constraint added", from: wines, rows: wineRows,
            to: winesWith(
                "CREATE TABLE wines (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, rating INTEGER, region TEXT, UNIQUE (name, region));"
            ),
            naiveLoses: true),
        SchemaChangeCase(
            name: "primary key changed", from: "CREATE TABLE pairs (a INTEGER, b INTEGER, c TEXT, PRIMARY KEY (a));",
            rows: "INSERT INTO pairs VALUES (1, 1, 'x'), (2, 1, 'y');",
            to: "CREATE TABLE pairs (a INTEGER, b INTEGER, c TEXT, PRIMARY KEY (a, b));"),
    ]
}
