/// The arguments of `.archive` (`.ar`), read as sqlite3 reads them: a first argument without a dash
/// is a bundle of one-letter options (`.ar cvf FILE …`, tar's old style); otherwise `-cvf FILE` bundles
/// letters, `--create` and the other long names may be shortened to a unique prefix, and the first
/// argument that is not an option starts the list of files.
struct ArchiveRequest: Equatable {
    /// What to do with the archive.
    enum Action: String, Equatable {
        case create, update, insert, remove, list, extract
    }

    var action: Action?
    /// Each file name as it is processed (`-v`).
    var isVerbose = false
    /// The archive file (`-f`); nil for the shell's database.
    var file: String?
    /// The folder files are read from or extracted into (`-C`).
    var directory: String?
    /// Names are GLOB patterns (`-g`).
    var usesGlob = false
    /// The files (create, update, insert) or names in the archive (the others).
    var names: [String] = []

    /// One option: its letter, its long name, the action it stands for, and whether it takes a value.
    private struct Option {
        let letter: Character
        let long: String
        let action: Action?
        let takesValue: Bool
    }

    private static let options: [Option] = [
        Option(letter: "c", long: "create", action: .create, takesValue: false),
        Option(letter: "u", long: "update", action: .update, takesValue: false),
        Option(letter: "i", long: "insert", action: .insert, takesValue: false),
        Option(letter: "r", long: "remove", action: .remove, takesValue: false),
        Option(letter: "t", long: "list", action: .list, takesValue: false),
        Option(letter: "x", long: "extract", action: .extract, takesValue: false),
        Option(letter: "v", long: "verbose", action: nil, takesValue: false),
        Option(letter: "f", long: "file", action: nil, takesValue: true),
        Option(letter: "a", long: "append", action: nil, takesValue: true),
        Option(letter: "C", long: "directory", action: nil, takesValue: true),
        Option(letter: "g", long: "glob", action: nil, takesValue: false),
        Option(letter: "n", long: "dryrun", action: nil, takesValue: false),
        Option(letter: "h", long: "help", action: nil, takesValue: false),
    ]

    /// Whether `--help` (or `-h`) asked for the help text instead.
    var wantsHelp = false

    static let usage = "Usage: .archive -c|-u|-i|-r|-t|-x [-v] [-f ARCHIVE] [-C DIR] [-g] [FILE…] (see .archive --help)"

    /// The help text of `.archive --help`.
    static let help = """
        .archive (.ar): SQLite archives, a table sqlar(name, mode, mtime, sz, data) of zlib-compressed files
          One of:
            -c, --create         Make a new archive of the FILEs (folders with everything in them)
            -u, --update         Add the FILEs, replacing those whose mode or mtime changed
            -i, --insert         Add the FILEs, replacing them whether they changed or not
            -r, --remove         Take the named entries out of the archive
            -t, --list           List the entries (the named ones, or all)
            -x, --extract        Write the entries (the named ones, or all) as files
          And:
            -v, --verbose        Name each entry as it is done (-t: with mode, size and time)
            -f FILE, --file FILE Use the archive FILE instead of the shell's database
            -C DIR, --directory DIR
                                 Read the FILEs from DIR, or extract into DIR
            -g, --glob           Names in the archive are GLOB patterns
          Letters bundle as in tar: .ar -cvf site.sqlar public, or .ar cvf site.sqlar public
        """

    init(_ arguments: [String]) throws {
        guard let first = arguments.first else { throw DotCommandError("Wrong number of arguments. " + Self.usage) }
        var rest = arguments.dropFirst()
        if !first.hasPrefix("-") {
            // tar's old style: the letters first, then the values they take, in order, then the files.
            for letter in first {
                let option = try Self.option(letter: letter)
                try apply(option, value: option.takesValue ? Self.value(of: option, from: &rest) : nil)
            }
            names = Array(rest)
        } else {
            var remaining = arguments[...]
            while let argument = remaining.first, argument.hasPrefix("-") {
                remaining = remaining.dropFirst()
                if argument.hasPrefix("--") {
                    let option = try Self.option(long: String(argument.dropFirst(2)))
                    try apply(option, value: option.takesValue ? Self.value(of: option, from: &remaining) : nil)
                    continue
                }
                var letters = Substring(argument.dropFirst())
                while let letter = letters.first {
                    letters = letters.dropFirst()
                    let option = try Self.option(letter: letter)
                    guard option.takesValue else {
                        try apply(option, value: nil)
                        continue
                    }
                    // `-fFILE` or `-f FILE`.
                    if !letters.isEmpty {
                        try apply(option, value: String(letters))
                        letters = ""
                    } else {
                        try apply(option, value: Self.value(of: option, from: &remaining))
                    }
                }
            }
            names = Array(remaining)
        }
        guard !wantsHelp else { return }
        guard action != nil else {
            throw DotCommandError("required option missing: one of -c, -u, -i, -r, -t, -x (\(Self.usage))")
        }
    }

    private mutating func apply(_ option: Option, value: String?) throws {
        if let chosen = option.action {
            guard action == nil || action == chosen else {
                throw DotCommandError("more than one of -c, -u, -i, -r, -t, -x (\(Self.usage))")
            }
            action = chosen
            return
        }
        switch option.letter {
        case "v": isVerbose = true
        case "f": file = value
        case "C": directory = value
        case "g": usesGlob = true
        case "h": wantsHelp = true
        case "a":
            throw DotCommandError("--append is not supported: it needs SQLite's apndvfs, which cellar does not have")
        default:
            throw DotCommandError("--dryrun is not supported: cellar does not show the SQL of .archive")
        }
    }

    private static func option(letter: Character) throws -> Option {
        guard let option = options.first(where: { $0.letter == letter }) else {
            throw DotCommandError("unrecognized option: \(letter) (\(usage))")
        }
        return option
    }

    private static func option(long name: String) throws -> Option {
        let matches = options.filter { $0.long.hasPrefix(name) && !name.isEmpty }
        if let exact = matches.first(where: { $0.long == name }) { return exact }
        guard matches.count == 1, let option = matches.first else {
            throw DotCommandError(
                (matches.isEmpty ? "unrecognized option: --" : "ambiguous option: --") + name + " (\(usage))")
        }
        return option
    }

    private static func value(of option: Option, from arguments: inout ArraySlice<String>) throws -> String {
        guard let value = arguments.first else {
            throw DotCommandError("option requires an argument: \(option.letter) (\(usage))")
        }
        arguments = arguments.dropFirst()
        return value
    }
}
