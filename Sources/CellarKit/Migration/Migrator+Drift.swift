extension Migrator {
    /// Compares the database's schema with the one its applied migrations create: the up sections of
    /// every applied migration (baselined ones included; on a database at or above the folder's
    /// ``Checkpoint``, the checkpoint for the versions it covers) are replayed, in version order, into an
    /// in-memory database, and both schemas are compared after normalising whitespace, comments, case
    /// and identifier quoting. cellar's own tables and SQLite's internal objects are left out.
    ///
    /// ```swift
    /// for drift in try migrator.schemaDrift() { print("drift: \(drift)") }
    /// ```
    /// The replay is a ``SchemaReplay``: set up as the migrator's connection was (its extensions and
    /// functions), foreign keys neither enforced nor checked (it has no seed rows), nothing outside the
    /// in-memory database written.
    /// - Returns: each difference, by type (tables, indexes, views, triggers) then name; empty when none.
    /// - Throws: ``MigrationError/appliedButMissing(version:name:)`` when an applied migration has no
    ///   file to replay, ``MigrationError/failed(_:)`` worded as the replay's (`replaying migration N failed: …`) when one fails to replay, or ``SQLiteError``.
    public func schemaDrift() throws -> [SchemaDrift] {
        let records = try applied()
        let appliedVersions = Set(records.map(\.version))
        // A database at or above the checkpoint is replayed from it: it stands for the versions it covers.
        let checkpoint = self.checkpoint.flatMap { checkpoint in
            (records.last?.version ?? 0) >= checkpoint.version ? checkpoint : nil
        }
        let stoodFor = { (version: Int64) in checkpoint.map { version <= $0.version && $0.covers(version) } ?? false }
        if let missing = records.first(where: { record in
            !stoodFor(record.version) && !migrations.contains { $0.version == record.version }
        }) {
            throw MigrationError.appliedButMissing(version: missing.version, name: missing.name)
        }
        let replay = SchemaReplay(
            migrations: migrations.filter { appliedVersions.contains($0.version) && !stoodFor($0.version) },
            checkpoint: checkpoint, like: database)
        let replayed = try replay.replay()
        return try Self.differences(live: SchemaObject.all(in: database), expected: SchemaObject.all(in: replayed))
    }

    static func differences(live: [SchemaObject.Key: SchemaObject], expected: [SchemaObject.Key: SchemaObject])
        -> [SchemaDrift]
    {
        var drifts: [SchemaDrift] = []
        for key in Set(live.keys).union(expected.keys).sorted() {
            switch (live[key], expected[key]) {
            case (let object?, nil): drifts.append(SchemaDrift(type: object.type, name: object.name, kind: .added))
            case (nil, let object?): drifts.append(SchemaDrift(type: object.type, name: object.name, kind: .removed))
            case (let object?, let wanted?) where object.normalizedSQL != wanted.normalizedSQL:
                let added = object.columns.filter { column in !wanted.columns.contains { $0.lowercased() == column.lowercased() }
                }
                let removed = wanted.columns.filter { column in
                    !object.columns.contains { $0.lowercased() == column.lowercased() }
                }
                drifts.append(
                    SchemaDrift(
                        type: object.type, name: object.name, kind: .changed(addedColumns: added, removedColumns: removed)))
            default: break
            }
        }
        return drifts
    }
}

/// One schema object with what drift detection compares.
struct SchemaObject {
    /// Objects compare by type and case-folded name, ordered tables, indexes, views, triggers.
    struct Key: Hashable, Comparable {
        let typeRank: Int
        let name: String

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.typeRank, lhs.name) < (rhs.typeRank, rhs.name)
        }
    }

    let type: String
    let name: String
    let normalizedSQL: String
    /// A table's column names (empty for other objects).
    let columns: [String]

    /// The objects of `database`'s main schema, without SQLite's and cellar's own.
    static func all(in database: any SQLConnection) throws -> [Key: SchemaObject] {
        let rows = try database.query(
            """
            SELECT type, name, sql FROM sqlite_schema
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
              AND \(Ledger.notALedger)
            """)
        var objects: [Key: SchemaObject] = [:]
        for row in rows {
            let type = row[0].ledgerText
            let name = row[1].ledgerText
            let columns =
                type == "table"
                ? try database.query("SELECT name FROM pragma_table_xinfo(?)", [name]).map { $0[0].ledgerText } : []
            let rank = ["table": 0, "index": 1, "view": 2, "trigger": 3][type] ?? 4
            objects[Key(typeRank: rank, name: name.lowercased())] = SchemaObject(
                type: type, name: name, normalizedSQL: SchemaText.normalized(row[2].ledgerText), columns: columns)
        }
        return objects
    }
}
