/// Text made safe for roff (man pages): a backslash is `\e`, a hyphen `\-` (a real minus, so options
/// copy and paste), and a line that would start with `.` or `'` (a request) starts with `\&`.
enum RoffText {
    /// `text` escaped; line breaks stay (roff fills the lines of a paragraph).
    static func escaped(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let body = line.replacing(#"\"#, with: #"\e"#).replacing("-", with: #"\-"#)
            return body.first == "." || body.first == "'" ? #"\&"# + body : body
        }.joined(separator: "\n")
    }

    /// `\fBtext\fR`.
    static func bold(_ text: String) -> String { #"\fB"# + escaped(text) + #"\fR"# }

    /// `\fItext\fR`.
    static func italic(_ text: String) -> String { #"\fI"# + escaped(text) + #"\fR"# }
}
