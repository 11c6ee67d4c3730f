import CellarKit
import Glibc

/// `blob put` and `blob get`, shared by the `cellar blob` command and the shell's `.blob`.
struct BlobTransfer {
    /// The connection.
    let database: Database
    /// The streams: standard input for `put -`, standard error for the progress line.
    let io: IO
    /// Whether the progress line may show (not with `--quiet`).
    let showsProgress: Bool

    /// Runs `request`; returns the one-line summary of what moved.
    func run(_ request: BlobRequest, output: any ByteSink, isOutputTerminal: Bool) throws -> String {
        do {
            switch request.direction {
            case .put: return try put(request)
            case .get: return try get(request, output: output, isOutputTerminal: isOutputTerminal)
            }
        } catch {
            // A stop asked for while blocked on input ends as a short input: it is still a stop.
            if database.cancellation?.isCancelled == true { throw CommandFailure(message: interruptedMessage(request)) }
            guard let blobError = error as? BlobError else { throw error }
            throw CommandFailure(message: advice(for: blobError, request: request))
        }
    }

    // MARK: - put

    private func put(_ request: BlobRequest) throws -> String {
        let input = try BlobInput.open(
            request, standardInput: io.input, spoolFolder: spoolFolder, limit: database.maximumValueLength,
            cancellation: database.cancellation)
        let progress = progress(request, total: input.size)
        defer { progress.finish() }
        try database.writeBlob(
            table: request.table, column: request.column, rowID: request.rowID, from: input.source, count: input.size,
            createsRow: request.createsRow, progress: progress.update)
        return "stored \(ByteSize.text(input.size)) in \(request.cellName)"
    }

    /// Beside the database (whose folder must hold the blob anyway), or the temporary folder.
    private var spoolFolder: String {
        guard let file = DatabaseFile.path(of: database.path) else {
            return io.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        }
        guard let slash = file.lastIndex(of: "/") else { return "." }
        return slash == file.startIndex ? "/" : String(file[..<slash])
    }

    // MARK: - get

    private func get(_ request: BlobRequest, output: any ByteSink, isOutputTerminal: Bool) throws -> String {
        let blob = try database.openBlob(table: request.table, column: request.column, rowID: request.rowID)
        defer { try? blob.close() }
        let size = try blob.size
        // Forced onto the terminal, the bytes would land on the progress line's row.
        let progress = progress(request, total: size, isShown: !(request.path == "-" && isOutputTerminal))
        defer { progress.finish() }
        guard request.path != "-" else {
            if isOutputTerminal, !request.writesToTerminal {
                throw CommandFailure(
                    message: "\(request.cellName) is a blob of \(ByteSize.text(size)); refusing to write binary data to a "
                        + "terminal (redirect standard output, name a FILE, or pass --force)")
            }
            try blob.copy(to: output, progress: progress.update)
            return ""
        }
        let file = try ReplacementFile(replacing: request.path)
        try blob.copy(to: file, progress: progress.update)
        // A stop asked for after the last chunk still leaves no file behind.
        if database.cancellation?.isCancelled == true { throw CommandFailure(message: "interrupted") }
        try file.commit()
        return "wrote \(ByteSize.text(size)) from \(request.cellName) to \(request.path)"
    }

    // MARK: - Messages

    private func progress(_ request: BlobRequest, total: Int, isShown: Bool = true) -> TransferProgress {
        TransferProgress(io: io, label: request.cellName, total: total, isShown: isShown && showsProgress && io.isErrorTerminal)
    }

    /// The library's fact, and what the user can do about it.
    private func advice(for error: BlobError, request: BlobRequest) -> String {
        switch error.reason {
        case .noSuchRow where request.direction == .put: "\(error) (--insert creates it)"
        case .sourceTooShort, .sourceTooLong: "\(error); \(request.cellName) keeps its old value"
        case .failed(let underlying) where underlying.isLockContention:
            "\(request.cellName): "
                + FlagAdvice.lockedMessage(
                    path: database.path, timeout: database.busyTimeout, consequence: "it keeps its old value")
        default: error.description
        }
    }

    private func interruptedMessage(_ request: BlobRequest) -> String {
        switch request.direction {
        case .put: "interrupted; \(request.cellName) keeps its old value"
        case .get: request.path == "-" ? "interrupted" : "interrupted; nothing was written to \(request.path)"
        }
    }
}
