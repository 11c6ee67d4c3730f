import CellarDqlite
import CellarKit
import DqliteClient
import Glibc

/// `query` and `run` on a dqlite database: statements split locally, sent one by one, rows rendered
/// as on a file.
enum RemoteScriptCommands {
    static func query(_ session: RemoteSession) throws -> ExitStatus {
        let arguments = session.invocation.arguments
        if !arguments.allValues("param").isEmpty {
            throw CommandFailure(message: "--param is not available on a dqlite database yet; write the values in the SQL")
        }
        let sql = arguments.positionals[0]
        let options = try RenderOptionParsing.renderOptions(arguments, io: session.io, command: "query")
        let renderer = ResultRenderer(sink: session.io.output, options: options)
        let script = RemoteScript(database: try session.connect(), renderer: renderer)
        defer { try? renderer.flush() }
        try script.run(sql, path: "<query>", isTransactional: false)
        return .success
    }

    static func run(_ session: RemoteSession) throws -> ExitStatus {
        let arguments = session.invocation.arguments
        let options = try RenderOptionParsing.renderOptions(arguments, io: session.io, command: "run")
        let renderer = ResultRenderer(sink: session.io.output, options: options)
        let script = RemoteScript(database: try session.connect(), renderer: renderer)
        defer { try? renderer.flush() }
        var finished: [String] = []
        for path in arguments.positionals {
            let text = try read(path, io: session.io)
            do {
                try script.run(text, path: path, isTransactional: !arguments.has("autocommit"))
            } catch var diagnostic as Diagnostic {
                if !finished.isEmpty {
                    diagnostic.notes.append("earlier scripts stay applied: \(finished.joined(separator: ", "))")
                }
                throw diagnostic
            }
            finished.append(path)
        }
        return .success
    }

    private static func read(_ path: String, io: IO) throws -> String {
        do {
            let bytes = path == "-" ? try readAll(io.input) : try FileContents.read(path)
            return String(decoding: bytes, as: UTF8.self)
        } catch let error as SystemError {
            throw CommandFailure(message: "cannot open script '\(path)': \(error)")
        }
    }

    private static func readAll(_ source: any ByteSource) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }
}
