/// What one database's command did, filled in by the command as it runs, for the fleet's line about it.
final class FleetRecord {
    /// Migrations applied (`migrate`, `setup`).
    var appliedMigrations = 0
    /// Seeds applied (`setup`).
    var appliedSeeds = 0
    /// The version afterwards.
    var version: Int64?
    /// The `--backup` copy, when one was made.
    var backupPath: String?
    /// Migrations and seeds not applied as they are on disk (`status`).
    var workToDo = 0
    /// Applied migrations verified (`verify`).
    var verifiedMigrations = 0
}
