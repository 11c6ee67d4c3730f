import CellarKit

/// What a progress view shows, on the main actor: the migrator's events arrive here from the task
/// that migrates.
@MainActor
final class ProgressLog {
    private let output: any ByteSink

    /// A log writing its lines to `output`.
    init(output: any ByteSink) {
        self.output = output
    }

    /// Shows one event as a line.
    func record(_ event: MigrationEvent) throws {
        switch event {
        case .started(let migration):
            try output.write("applying \(migration.identifier)\n")
        case .finished(let outcome):
            try output.write("applied \(outcome.migration.identifier): \(outcome.statementCount) statements\n")
        default:
            break
        }
    }
}
