import CellarKit

/// The output options `query` (and `run`, for rows its scripts return) share.
enum RenderOptionParsing {
    static let mode = OptionSpec(
        "mode", value: "mode", completion: .choices(OutputMode.allCases.map(\.rawValue)),
        help:
            "Output mode: \(OutputMode.allCases.map(\.rawValue).joined(separator: ", ")) (default box on a terminal, list otherwise; "
            + "also --format)."
    ).answering(to: ["format"])
    static let header = OptionSpec("header", help: "Show column headers (default in box, table, markdown, line).")
    static let noHeader = OptionSpec("no-header", help: "Hide column headers.")
    static let null = OptionSpec(
        "null", value: "text", help: "Text shown for NULL in human modes and list, csv, tsv (default empty).")
    static let table = OptionSpec(
        "table", value: "name", help: "Table named by --mode insert's INSERT statements (default \"table\").")

    /// `--mode`, `--header`, `--no-header`, `--null`, `--table`.
    static let options = [mode, header, noHeader, null, table]

    /// Render options from the command line: box on a terminal, list into a pipe or file.
    static func renderOptions(_ arguments: ParsedArguments, io: IO, command: String) throws(UsageError) -> RenderOptions {
        var options = RenderOptions(
            mode: io.isOutputTerminal ? .box : .list, escapesControlCharacters: io.isOutputTerminal)
        if let modeName = arguments.value(of: Self.mode) {
            guard let mode = OutputMode(rawValue: modeName) else {
                var message = "unknown mode '\(modeName)'"
                if let suggestion = NearMiss.suggestion(for: modeName, among: OutputMode.allCases.map(\.rawValue)) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw UsageError(message, command: command)
            }
            options.mode = mode
        }
        // Opposing flags: the last one given wins, as later occurrences of any option do.
        if let header = arguments.lastFlag(of: Self.header, Self.noHeader) { options.showsHeaders = header == Self.header }
        if let null = arguments.value(of: Self.null) { options.nullValue = null }
        if let table = arguments.value(of: Self.table) { options.insertTableName = table }
        return options
    }
}
