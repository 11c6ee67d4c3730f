import CellarKit
import Glibc

/// `.edit` (beyond sqlite3, as DuckDB's shell and pgcli's `\e`): the last statement, or the one
/// being typed, in `$VISUAL` or `$EDITOR`; what is saved runs.
extension ShellSession {
    /// `.edit`: writes `pending` (the statement being typed) or else the last statement that ran to a
    /// temporary file (mode 0600, removed afterwards), opens it in `$VISUAL`, else `$EDITOR`, else
    /// `vi`, and runs what was saved, statements and dot-commands alike. Nothing runs when the file is
    /// saved empty or the editor fails.
    func edit(pending: String? = nil) throws -> DotCommandOutcome {
        let text = pending ?? lastStatement ?? ""
        let editor = ["VISUAL", "EDITOR"].lazy.compactMap { self.io.environment[$0] }.first { !$0.isEmpty } ?? "vi"
        let folder = io.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder + "/cellar-edit-XXXXXX.sql").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemps($0, 4) } ?? -1
        }
        guard descriptor >= 0 else {
            throw DotCommandError("cannot make a file to edit in \(folder): \(String(cString: strerror(errno)))")
        }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        do {
            defer { Glibc.close(descriptor) }
            let sink = FileDescriptorSink(descriptor: descriptor)
            try sink.write(text.isEmpty || text.hasSuffix("\n") ? text : text + "\n")
            try sink.flush()
        }
        try output.flush()
        let pid = try Self.spawnShell(editor + " " + Self.shellQuoted(path), output: nil)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else {
                throw DotCommandError("cannot wait for the editor: \(SystemError(operation: "waitpid", code: errno))")
            }
        }
        let signal = status & 0x7F
        let exitCode = (status >> 8) & 0xFF
        guard signal == 0, exitCode == 0 else {
            let how = signal != 0 ? "was ended by signal \(signal)" : "exited with status \(exitCode)"
            throw DotCommandError("the editor '\(editor)' \(how); nothing was run")
        }
        let saved: String
        do {
            saved = try SQLFileDecoder.decode(try FileContents.read(path), path: path)
        } catch let error as SystemError {
            throw DotCommandError("cannot read the edited file: \(error)")
        }
        guard !saved.allSatisfy(\.isWhitespace) else { return .succeeded }
        onEdited?(saved)
        let errorsBefore = errorCount
        let flow = runLines(of: LineReader(BufferSource(saved)), path: "<edit>")
        if flow == .stop, requestedExitStatus != nil || errorCount == errorsBefore { return .quit }
        return errorCount == errorsBefore ? .succeeded : .failed
    }

    /// `text` in single quotes for `/bin/sh`.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "'\\''") + "'"
    }
}
