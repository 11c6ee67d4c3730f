import Glibc
import TestSupport
import Testing

/// The scripts `cellar completions` prints, loaded by the real shells: bash always (it is there
/// wherever cellar's tests run), zsh and fish when installed, and the man page through `man`.
@Suite struct CompletionScriptTests {
    /// Where the scripts are written.
    let folder = TemporaryDirectory()
    /// Where bash completes file names: `a.sql`, `b.sql` and `sub/`.
    let workFolder = TemporaryDirectory()

    /// `COMPREPLY` after bash, with the bash script sourced, completes `words` (the last one is the
    /// word under the cursor), in `workFolder`.
    private func bashCompletes(_ words: [String]) throws -> [String] {
        let script = folder.file("cellar.bash")
        if access(script, F_OK) != 0 {
            try folder.write("cellar.bash", try Cellar.run(["completions", "bash"]).output)
            try workFolder.write("a.sql", "")
            try workFolder.write("b.sql", "")
            mkdir(workFolder.file("sub"), 0o755)
        }
        let driver = """
            source "$0" || exit 9
            COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _cellar
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try Shell.run(
            "/bin/bash", ["--norc", "--noprofile", "-c", driver, script] + words, environment: ["PATH": "/usr/bin:/bin"],
            directory: workFolder.path, timeout: 30)
        #expect(result.status == 0, "\(result)")
        return result.output.split(separator: "\n").map(String.init)
    }

    /// The command names (aliases too) that `cellar --help` lists.
    private func listedCommands() throws -> [String] {
        let help = try Cellar.run(["--help"]).output
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.flatMap { line in
            (line.dropFirst(2).split(separator: "  ").first ?? "").split(separator: ", ").map(String.init)
        }
    }

    @Test func bashRegistersTheCompletionFunction() throws {
        try folder.write("cellar.bash", try Cellar.run(["completions", "bash"]).output)
        let result = try Shell.run(
            "/bin/bash", ["--norc", "--noprofile", "-c", "source \"$0\" && complete -p cellar", folder.file("cellar.bash")],
            timeout: 30)
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "complete -F _cellar cellar\n")
    }

    @Test func bashOffersEveryCommandHelpLists() throws {
        let commands = try listedCommands()
        #expect(commands.contains("migrate") && commands.contains("up") && commands.contains("manual"))
        #expect(try bashCompletes(["cellar", ""]) == commands)
    }

    @Test(arguments: [
        (["cellar", "mi"], ["migrate"]),
        (["cellar", "-d", "x.db", "que"], ["query"]),
        (["cellar", "help", "m"], ["migrate", "manual"]),
        (["cellar", "completions", ""], ["bash", "zsh", "fish"]),
        (
            ["cellar", "query", "--mode", ""],
            [
                "box", "table", "markdown", "line", "list", "csv", "tsv", "json", "jsonl", "quote", "insert", "column", "html",
                "tcl", "ascii",
            ]
        ),
        (["cellar", "query", "--mode", "=", "j"], ["json", "jsonl"]),
        (["cellar", "query", "--mode=j"], ["--mode=json", "--mode=jsonl"]),
        (["cellar", "--color", "a"], ["auto", "always"]),
        (["cellar", "status", "--format", ""], ["text", "json"]),
        (["cellar", "migrate", "--d"], ["--dry-run", "--dump-schema", "--databases-from", "--database"]),
        (
            ["cellar", "-"],
            [
                "-d", "--database", "-m", "--migrations", "--seeds", "--busy-timeout", "--color", "--load-extension", "-q",
                "--quiet", "-V", "--version", "-h", "--help",
            ]
        ),
        (["cellar", "run", ""], ["a.sql", "b.sql", "sub"]),
        (["cellar", "run", "a.sql", "b"], ["b.sql"]),
        (["cellar", "-m", ""], ["sub"]),
        (["cellar", "--database", "=", "a"], ["a.sql"]),
        (["cellar", "query", "--null", "x", ""], []),
        (["cellar", "query", "SELECT 1", ""], []),
        (["cellar", "blob", "p"], ["put"]),
        (["cellar", "blob", "g"], ["get"]),
    ])
    func bashCompletes(words: [String], expected: [String]) throws {
        #expect(Set(try bashCompletes(words)) == Set(expected))
    }

    @Test(.enabled(if: access("/usr/bin/zsh", X_OK) == 0, "zsh is not installed"))
    func zshParsesTheScript() throws {
        try folder.write("_cellar", try Cellar.run(["completions", "zsh"]).output)
        let result = try Shell.run("/usr/bin/zsh", ["-n", folder.file("_cellar")], timeout: 30)
        #expect(result.status == 0, "\(result)")
    }

    @Test(.enabled(if: access("/usr/bin/fish", X_OK) == 0, "fish is not installed"))
    func fishCompletesCommandsAndModes() throws {
        try folder.write("cellar.fish", try Cellar.run(["completions", "fish"]).output)
        let result = try Shell.run(
            "/usr/bin/fish",
            [
                "--no-config", "-c", "source $argv[1]; complete -C 'cellar mi'; complete -C 'cellar query --mode js'",
                folder.file("cellar.fish"),
            ],
            environment: ["HOME": folder.path, "PATH": "/usr/bin:/bin"], timeout: 30)
        #expect(result.status == 0, "\(result)")
        let words = result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        #expect(words == ["migrate", "json", "jsonl"])
    }

    @Test(.enabled(if: access("/usr/bin/man", X_OK) == 0, "man is not installed"))
    func manRendersTheManualWithoutWarnings() throws {
        let page = try Cellar.run(["manual"]).output
        let result = try Shell.run(
            "/usr/bin/man", ["--warnings", "-l", "-"],
            environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "100", "LANG": "C.UTF-8"],
            input: Array(page.utf8), timeout: 60)
        #expect(result.status == 0, "\(result)")
        #expect(result.error.isEmpty, "man warned: \(result.error)")
        for heading in ["NAME", "SYNOPSIS", "OPTIONS", "COMMANDS", "ENVIRONMENT", "EXIT STATUS"] {
            #expect(result.output.contains("\n\(heading)\n"), "missing \(heading)")
        }
        for command in try listedCommands() {
            #expect(result.output.contains(command), "missing \(command)")
        }
    }
}
