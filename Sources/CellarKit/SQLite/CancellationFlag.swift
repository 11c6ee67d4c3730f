import Synchronization

/// A request to stop, set from another thread (a signal watcher) and honoured by a ``Database`` before
/// it starts each statement of a script or migration.
///
/// Setting the flag does not stop a statement that is already running: pair it with
/// ``Interrupter/interrupt()``, which does. Together they stop work wherever it stands, and the
/// migrator or script runner then rolls back as for any other error.
public final class CancellationFlag: Sendable {
    private let requested = Atomic<Bool>(false)

    /// Creates a flag that is not set.
    public init() {}

    /// Asks the work to stop.
    public func cancel() {
        requested.store(true, ordering: .sequentiallyConsistent)
    }

    /// Whether the work was asked to stop.
    public var isCancelled: Bool {
        requested.load(ordering: .sequentiallyConsistent)
    }
}
