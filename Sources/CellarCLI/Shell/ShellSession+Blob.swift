import CellarKit

extension ShellSession {
    /// `.blob put|get TABLE COLUMN ROWID FILE [--insert] [--size N] [--force]`: what `cellar blob`
    /// does, on the shell's connection (inside its open transaction, as a savepoint) and to its output.
    func transferBlob(_ command: DotCommandLine) throws {
        var words: [String] = []
        var insert = false
        var force = false
        var size: String?
        var arguments = command.arguments.makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--insert": insert = true
            case "--force": force = true
            case "--size": size = arguments.next() ?? ""
            case _ where argument.hasPrefix("--size="): size = String(argument.dropFirst("--size=".count))
            case _ where argument.hasPrefix("--"): throw DotCommandError("unknown option '\(argument)' (see .help)")
            default: words.append(argument)
            }
        }
        var request: BlobRequest
        do {
            request = try BlobRequest(words: words)
            try request.apply(insert: insert, size: size, force: force)
        } catch {
            throw DotCommandError("\(error.message); Usage: .blob put|get TABLE COLUMN ROWID FILE")
        }
        if request.direction == .put, request.path == "-" {
            throw DotCommandError(".blob put reads a FILE: standard input holds the shell's own input")
        }
        let database = try self.database
        let flag = CancellationFlag()
        database.cancellation = flag
        interruptWatcher?.beginShellStatement(database.interruption, cancellation: flag)
        defer {
            interruptWatcher?.endShellStatement()
            database.cancellation = nil
        }
        let transfer = BlobTransfer(database: database, io: io, showsProgress: true)
        _ = try transfer.run(request, output: output, isOutputTerminal: isOutputTerminal)
    }
}
