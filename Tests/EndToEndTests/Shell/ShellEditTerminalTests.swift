import CellarKit
import Glibc
import TestSupport
import Testing

/// `.edit` at a real terminal (tmux), with `$EDITOR` a small script that records what it was given
/// (the file's name, mode and text) and then does what its action file says: change the statement,
/// finish a half-typed one, save the file empty, or fail.
@Suite struct ShellEditTerminalTests {
    let folder = TemporaryDirectory()

    init() throws {
        let script = """
            #!/bin/sh
            file="$1"
            printf 'file %s %s\\n' "$file" "$(stat -c %a "$file")" >> "$EDIT_LOG"
            cat "$file" >> "$EDIT_LOG"
            case "$(cat "$EDIT_ACTION")" in
              replace) sed -i 's/41/42/' "$file" ;;
              finish) printf ' AS done;\\n' >> "$file" ;;
              empty) : > "$file" ;;
              fail) exit 3 ;;
            esac
            """
        try FileBytes.write(Array(script.utf8), to: folder.file("editor.sh"))
        chmod(folder.file("editor.sh"), 0o755)
    }

    private func act(_ action: String) throws {
        try FileBytes.write(Array(action.utf8), to: folder.file("action"))
    }

    private var log: String { (try? FileBytes.readText(folder.file("edit.log"))) ?? "" }

    @Test func editRunsWhatIsSavedAndNothingWhenSavedEmptyOrTheEditorFails() throws {
        try act("replace")
        let terminal = try TerminalSession(
            ["shell", "x.db"], in: folder,
            environment: [
                "EDITOR": folder.file("editor.sh"), "EDIT_LOG": folder.file("edit.log"), "EDIT_ACTION": folder.file("action"),
                "TMPDIR": folder.path,
            ])
        defer { terminal.kill() }
        try terminal.waitFor("cellar>")
        try terminal.type("SELECT 41 AS n;")
        try terminal.waitFor("│ 41 │")
        // The last statement, changed by the editor, runs.
        try terminal.type(".edit")
        try terminal.waitFor("│ 42 │")
        #expect(log.contains("\nSELECT 41 AS n;\n"), "\(log)")
        let firstFile = log.split(separator: "\n").first { $0.hasPrefix("file ") }.map { $0.split(separator: " ") } ?? []
        #expect(firstFile.count == 3 && firstFile[2] == "600", "the file is private: \(log)")
        #expect(firstFile.count == 3 && firstFile[1].hasPrefix(folder.path + "/cellar-edit-"))
        #expect(firstFile.count == 3 && access(String(firstFile[1]), F_OK) != 0, "the file is removed")
        // The statement being typed is the one edited.
        try act("finish")
        try terminal.type("SELECT 'typed'")
        try terminal.waitFor("...>")
        try terminal.type(".edit")
        try terminal.waitFor("│ typed │")
        #expect(log.contains("\nSELECT 'typed'\n"), "\(log)")
        // What ran last is now the edited statement; saved empty, nothing runs.
        try act("empty")
        try terminal.type(".edit")
        try terminal.type("SELECT 'after-empty' AS x;")
        var screen = try terminal.waitFor("after-empty │")
        #expect(screen.occurrences(of: "│ typed │") == 1, "\(screen)")
        #expect(log.contains("600\nSELECT 'typed'\n AS done;\n"), "\(log)")
        // The editor fails: nothing runs, and the shell says so.
        try act("fail")
        try terminal.type(".edit")
        screen = try terminal.waitFor("exited with status 3; nothing was run")
        try terminal.type(".quit")
        screen = try terminal.waitFor("[exit 0]")
        #expect(screen.occurrences(of: "after-empty │") == 1, "\(screen)")
        // Every temporary file was removed.
        let left = try Shell.run("/bin/sh", ["-c", "ls '\(folder.path)' | grep cellar-edit || true"]).output
        #expect(left.isEmpty, "\(left)")
    }
}
