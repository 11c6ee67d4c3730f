/// Quoting text into the completion scripts, so help text with quotes or `$` stays literal.
enum ShellQuoting {
    /// `'text'` for bash and zsh: every `'` closes the quote, adds an escaped one and reopens it.
    static func posix(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// `'text'` for fish, where `\` and `'` are escaped inside single quotes.
    static func fish(_ text: String) -> String {
        "'" + text.replacing(#"\"#, with: #"\\"#).replacing("'", with: #"\'"#) + "'"
    }
}
