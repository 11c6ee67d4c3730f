import CellarCLI
import CellarKit

/// The CLI run in-process against buffers: the one runner of the CLI tests (the project helpers add
/// their paths to the arguments and call it).
struct InProcessRun: CustomStringConvertible {
    /// The exit status `CellarCLI.run` returned.
    let status: Int32
    /// Standard output as bytes.
    let outputBytes: [UInt8]
    /// Standard output as text.
    var output: String { String(decoding: outputBytes, as: UTF8.self) }
    /// Standard error.
    let error: String

    /// Runs `cellar arguments…` with `input` on standard input, the given environment (nothing else
    /// of this process's) and streams that are terminals or not.
    init(
        _ arguments: [String], input: [UInt8], environment: [String: String] = [:], isOutputTerminal: Bool = false,
        isErrorTerminal: Bool = false
    ) {
        let output = BufferSink()
        let error = BufferSink()
        let io = IO(
            input: BufferSource(input), output: output, error: error, environment: environment,
            isOutputTerminal: isOutputTerminal, isErrorTerminal: isErrorTerminal)
        status = CellarCLI.run(arguments, io: io)
        outputBytes = output.bytes
        self.error = error.text
    }

    /// Runs `cellar arguments…` with the UTF-8 of `input` on standard input.
    init(
        _ arguments: [String], input: String = "", environment: [String: String] = [:], isOutputTerminal: Bool = false,
        isErrorTerminal: Bool = false
    ) {
        self.init(
            arguments, input: Array(input.utf8), environment: environment, isOutputTerminal: isOutputTerminal,
            isErrorTerminal: isErrorTerminal)
    }

    /// A summary for failure messages.
    var description: String { "status \(status)\nstdout: \(output)\nstderr: \(error)" }
}
