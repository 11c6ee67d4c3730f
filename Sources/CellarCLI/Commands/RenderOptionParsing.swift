import CellarKit

/// The output options `query` (and `run`, for rows its scripts return) share.
enum RenderOptionParsing {
    /// `--mode`, `--header`, `--no-header`, `--null`.
    static let options = [
        OptionSpec(
            "mode", value: "mode", completion: .choices(OutputMode.allCases.map(\.rawValue)),
            help:
                "Output mode: \(OutputMode.allCases.map(\.rawValue).joined(separator: ", ")) (default box on a terminal, list otherwise; "
                + "also --format)."
        ).answering(to: ["format"]),
        OptionSpec("header", help: "Show column headers (default in box, table, markdown, line)."),
        OptionSpec("no-header", help: "Hide column headers."),
        OptionSpec("null", value: "text", help: "Text shown for NULL in human modes and list, csv, tsv (default empty)."),
        OptionSpec("table", value: "name", help: "Table named by --mode insert's INSERT statements (default \"table\")."),
    ]

    /// Render options from the command line: box on a terminal, list into a pipe or file.
    static func renderOptions(_ arguments: ParsedArguments, io: IO, command: String) throws(UsageError) -> RenderOptions {
        var options = RenderOptions(
            mode: io.isOutputTerminal ? .box : .list, escapesControlCharacters: io.isOutputTerminal)
        if let modeName = arguments.value("mode") {
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
        switch arguments.lastFlag(of: "header", "no-header") {
        case "header": options.showsHeaders = true
        case "no-header": options.showsHeaders = false
        default: break
        }
        if let null = arguments.value("null") { options.nullValue = null }
        if let table = arguments.value("table") { options.insertTableName = table }
        return options
    }
}
