internal import CSQLite

extension Database {
    /// Whether `EXPLAIN QUERY PLAN` also shows the plans of the triggers a statement fires
    /// (`SQLITE_DBCONFIG_TRIGGER_EQP`); off on a new connection. sqlite3's `.eqp trigger` sets it.
    ///
    /// - Throws: ``SQLiteError`` when the connection is closed or SQLite refuses the setting.
    public func showsTriggerPlans() throws -> Bool {
        var result: Int32 = 0
        try check(cellar_db_config_int(try openHandle(), SQLITE_DBCONFIG_TRIGGER_EQP, -1, &result))
        return result != 0
    }

    /// Turns the trigger plans of `EXPLAIN QUERY PLAN` on or off (see ``showsTriggerPlans()``).
    public func setShowsTriggerPlans(_ isOn: Bool) throws {
        try check(cellar_db_config_int(try openHandle(), SQLITE_DBCONFIG_TRIGGER_EQP, isOn ? 1 : 0, nil))
    }
}
