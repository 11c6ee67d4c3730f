import Glibc

/// The size of the terminal standard output is on, in character cells.
struct TerminalSize: Equatable {
    /// Columns per line.
    let columns: Int
    /// Lines on the screen.
    let rows: Int

    /// The size of the terminal on standard output now (it changes when the window is resized), or nil
    /// when standard output is not a terminal.
    static func ofStandardOutput() -> TerminalSize? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
}
