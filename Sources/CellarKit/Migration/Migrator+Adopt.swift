extension Migrator {
    /// What ``adopt()`` did.
    public struct Adoption: Sendable {
        /// The other tool's ledger it read (left as it was).
        public let ledger: OtherToolLedger
        /// The migrations it recorded, `kind = 'adopted'`, with their files' checksums.
        public let recorded: [Migration]
        /// The migrations of that ledger cellar had recorded already (by an earlier adoption).
        public let alreadyRecorded: [Migration]
        /// Versions the other ledger holds that no file here has: not recorded.
        public let versionsWithoutFile: [Int64]
    }

    /// Records the migrations another tool's ledger holds (dbmate, goose, golang-migrate, sql-migrate,
    /// diesel, sqlx) as applied in `cellar_migrations`, `kind = 'adopted'`, without running them, in one
    /// transaction; the other tool's table is only read.
    ///
    /// - Returns: what was recorded, and the versions that ledger holds without a file here.
    /// - Throws: ``MigrationError/noOtherToolLedger`` when the database has none,
    ///   ``MigrationError/dirtyOtherToolLedger(_:)`` when a migration failed partway under the other tool.
    @discardableResult
    public func adopt() throws -> Adoption {
        forgetLedgerReads()
        return try database.transaction(.immediate) {
            guard let ledger = try OtherToolLedger.find(in: database, evenBesideCellars: true) else {
                throw MigrationError.noOtherToolLedger
            }
            if ledger.dirtyVersion != nil { throw MigrationError.dirtyOtherToolLedger(ledger) }
            try Ledger.prepareMigrations(in: database)
            var recorded: [Migration] = []
            var already: [Migration] = []
            for migration in migrations where ledger.records(migration.version) {
                if try Ledger.isApplied(migration.version, in: database) {
                    already.append(migration)
                } else {
                    try Ledger.record(migration, durationMilliseconds: 0, kind: "adopted", in: database)
                    recorded.append(migration)
                }
            }
            let versions = Set(migrations.map(\.version))
            let withoutFile = ledger.coversEarlierVersions ? [] : ledger.versions.filter { !versions.contains($0) }
            return Adoption(ledger: ledger, recorded: recorded, alreadyRecorded: already, versionsWithoutFile: withoutFile)
        }
    }

    /// Refuses to go on when `cellar_migrations` is absent and another tool's ledger is there: its
    /// applied migrations would read as pending and run a second time.
    func refuseOtherToolLedger() throws {
        if let ledger = try OtherToolLedger.find(in: database, schema: ledgerSchema()) {
            throw MigrationError.otherToolLedger(ledger)
        }
    }
}
