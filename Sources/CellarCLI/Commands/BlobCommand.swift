import CellarKit

/// `cellar blob put|get TABLE COLUMN ROWID FILE|-`: streams a file into a blob cell or a blob cell
/// into a file, with bounded memory.
enum BlobCommand: Command {
    static let insert = OptionSpec("insert", help: "put: create the row when it does not exist.")
    static let size = OptionSpec("size", value: "bytes", help: "put: how many bytes a pipe on standard input holds.")
    static let force = OptionSpec("force", help: "get: write binary data to a terminal.")

    static let spec = CommandSpec(
        name: "blob",
        abstract: "Stream a file into a blob cell (put) or a blob cell into a file (get).",
        arguments: [
            .init("put|get", help: "put: FILE into the cell; get: the cell into FILE.", completion: .choices(["put", "get"])),
            .init("table", help: "The table."),
            .init("column", help: "The blob column."),
            .init("rowid", help: "The row's rowid (its INTEGER PRIMARY KEY)."),
            .init("file", help: "The file, or - for standard input (put) or output (get)."),
        ],
        options: [insert, size, force],
        discussion: """
            put sets the cell to a zeroblob of the file's size and streams the file into it, in one
            transaction: all or nothing. Standard input of unknown size (a pipe without --size) is
            spooled to an unlinked temporary file beside the database first. get writes FILE under a
            temporary name in its folder and renames it once complete and synced, so an interrupted
            get never leaves half a file; it refuses to write to a terminal unless --force. Memory
            stays bounded (256 KiB chunks) for a blob of any size. A progress line shows on a terminal.
            """,
        examples: [
            .init("cellar blob put wine label 1 label.png", "Stream label.png into the label cell of wine row 1."),
            .init("cellar blob get wine label 1 label.png", "Stream that cell out into label.png (written whole or not at all)."),
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let arguments = invocation.arguments
        var request: BlobRequest
        do {
            request = try BlobRequest(words: arguments.positionals)
            try request.apply(
                insert: arguments.has(Self.insert), size: arguments.value(of: Self.size), force: arguments.has(Self.force))
        } catch {
            throw UsageError(error.message, command: spec.name)
        }
        let configuration = invocation.configuration
        let database = try DatabaseOpener(configuration).openExisting()
        let io = invocation.io
        let transfer = BlobTransfer(database: database, io: io, showsProgress: !configuration.isQuiet)
        return try SignalWatcher.shared.guarding(database, io: io) {
            let summary = try transfer.run(request, output: io.output, isOutputTerminal: io.isOutputTerminal)
            if !configuration.isQuiet, !summary.isEmpty { try io.printOutput(ControlCharacterEscaping.escape(summary)) }
            return .success
        }
    }
}
