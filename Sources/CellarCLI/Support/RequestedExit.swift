/// A command's request to end the process with an exit status outside ``ExitStatus`` (the shell's
/// `.exit CODE`, as sqlite3's): thrown once the command has finished, and returned as the status.
struct RequestedExit: Error, Equatable {
    /// The status, 1 to 255.
    let status: Int32
}
