/// What a ``FaultInjectingVFS`` does wrong, and what it has counted so far.
public final class FaultPlan: @unchecked Sendable {
    // @unchecked: one test drives one plan from one thread (the connection's), never shared.
    /// The fault to inject.
    public enum Fault: Sendable, Equatable {
        /// Work normally (count only).
        case none
        /// Fail the Nth write (1-based) and every later one with `code` (`SQLITE_IOERR_WRITE`, `SQLITE_FULL`).
        case failWrite(Int, code: Int32)
        /// Fail the Nth sync and every later one with `code`.
        case failSync(Int, code: Int32)
        /// Keep writes in memory until synced; at the Nth write, "lose power": drop every unsynced
        /// write of every file and fail everything after, as SQLite's own crash tests do.
        case powerLoss(atWrite: Int)
    }

    /// The fault this plan injects.
    public let fault: Fault
    /// Writes attempted so far.
    public internal(set) var writes = 0
    /// Syncs attempted so far.
    public internal(set) var syncs = 0
    /// Whether the fault has fired.
    public internal(set) var hasFired = false

    /// Creates a plan.
    public init(_ fault: Fault) { self.fault = fault }

    /// Whether writes stay in memory until a sync.
    var buffersUnsyncedWrites: Bool {
        if case .powerLoss = fault { return true }
        return false
    }
}
