import CellarKit
import Glibc

/// sqlite3's `.shell`/`.system` and `.load`.
extension ShellSession {
    /// `.shell CMD` / `.system CMD`: runs CMD with `/bin/sh -c`. At a terminal it has the terminal;
    /// otherwise its standard output joins the shell's output (an `.output` file included).
    func runSystemCommand(_ command: DotCommandLine) throws {
        guard !command.rest.isEmpty else { throw DotCommandError("usage: .\(command.name) CMD") }
        try output.flush()
        let status: Int32
        if isOutputTerminal {
            status = system(command.rest)
        } else {
            guard let pipe = popen(command.rest, "r") else {
                throw DotCommandError("cannot run the command: \(SystemError(operation: "popen", code: errno))")
            }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = fread(&buffer, 1, buffer.count, pipe)
                if count == 0 { break }
                try buffer.withUnsafeBytes { try output.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            }
            status = pclose(pipe)
        }
        guard status != -1 else {
            throw DotCommandError("cannot run the command: \(SystemError(operation: "system", code: errno))")
        }
        let exitCode = (status >> 8) & 0xFF
        let signal = status & 0x7F
        if signal != 0 { throw DotCommandError("the command was ended by signal \(signal)") }
        if exitCode != 0 { throw DotCommandError("the command exited with status \(exitCode)") }
    }

    /// `.load FILE [ENTRY]`: loads an SQLite extension into the connection through the C API (the
    /// SQL function `load_extension()` stays off).
    func loadExtension(_ command: DotCommandLine) throws {
        guard (1...2).contains(command.arguments.count) else { throw DotCommandError("usage: .load FILE [ENTRY]") }
        try database.loadExtension(command.arguments[0], entryPoint: command.arguments.count == 2 ? command.arguments[1] : nil)
    }
}
