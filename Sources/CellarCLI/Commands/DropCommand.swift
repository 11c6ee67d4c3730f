import CellarKit
import Glibc

/// `cellar drop`: deletes the database with its `-wal`, `-shm` and `-journal` files.
enum DropCommand: Command {
    static let force = OptionSpec("force", help: "Do not ask (needed when standard input is not a terminal).")

    static let spec = CommandSpec(
        name: "drop", cluster: .filesOnly,
        abstract: "Delete the database with its -wal, -shm and -journal files.",
        options: [force],
        discussion: """
            On a terminal it asks first. The database's exclusive lock is taken before anything is deleted,
            so a database another process is writing is an error (after the busy timeout) and stays.
            """,
        examples: [
            .init(
                "cellar drop -d scratch.sqlite --force",
                "Delete the database and its -wal, -shm and -journal files without asking.")
        ])

    static func run(_ invocation: Invocation) throws -> ExitStatus {
        let io = invocation.io
        let address = invocation.configuration.databasePath
        guard let path = DatabaseFile.path(of: address) else {
            throw CommandFailure(message: "'\(address)' is not a database file; drop needs a path")
        }
        try DatabaseOpener.refuseCompanion(path)
        guard DatabaseFile.exists(path) else { throw CommandFailure(message: "no database at '\(path)'") }
        if !invocation.arguments.has(Self.force) {
            guard io.isInputTerminal else {
                throw CommandFailure(message: "drop deletes '\(path)'; pass --force to confirm when not on a terminal")
            }
            try io.error.write(
                "Delete database '\(ControlCharacterEscaping.escape(path))' and its -wal, -shm and -journal files? [y/N] ")
            guard try readAnswer(io.input).lowercased().hasPrefix("y") else {
                io.printError("cellar: nothing was deleted")
                return .failure
            }
        }
        let database = try DatabaseOpener(invocation.configuration).openExisting()
        do {
            try database.execute("BEGIN EXCLUSIVE")
        } catch let error as SQLiteError where error.isLockContention {
            throw CommandFailure(
                message: FlagAdvice.lockedMessage(
                    path: path, timeout: invocation.configuration.busyTimeout, consequence: "nothing was deleted"))
        }
        for file in [path] + DatabaseFile.companions(of: path) where unlink(file) != 0 && errno != ENOENT {
            throw CommandFailure(message: "cannot delete '\(file)': \(String(cString: strerror(errno)))")
        }
        database.rollbackIfNeeded()
        if !invocation.configuration.isQuiet { try io.printOutput("dropped database \(path)") }
        return .success
    }

    /// One line of standard input (up to 64 bytes), for the confirmation.
    private static func readAnswer(_ input: any ByteSource) throws -> String {
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while answer.count < 64 {
            let count = try withUnsafeMutableBytes(of: &byte) { try input.read(into: $0) }
            if count == 0 || byte == UInt8(ascii: "\n") { break }
            answer.append(byte)
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
