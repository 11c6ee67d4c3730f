import Glibc

/// Runs the built `cellar` binary, as end-to-end tests need.
public enum Cellar {
    /// The `cellar` executable beside the test bundle (SwiftPM builds both into one folder), or the one
    /// `CELLAR_TEST_BINARY` names (CI runs the terminal tests again on the libedit build that way).
    public static var executablePath: String {
        if let chosen = getenv("CELLAR_TEST_BINARY").map({ String(cString: $0) }), !chosen.isEmpty {
            return chosen
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let testBinary = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        var folder = testBinary
        // The test binary is `<bin>/cellarPackageTests.xctest`; cellar sits in `<bin>`.
        while let slash = folder.lastIndex(of: "/") {
            folder = String(folder[..<slash])
            let candidate = folder + "/cellar"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return "cellar"
    }

    /// An environment without the variables that would change cellar's configuration or colours.
    public static var cleanEnvironment: [String: String] {
        var environment = ChildProcess.currentEnvironment
        for key in environment.keys where key.hasPrefix("CELLAR_") || key == "NO_COLOR" {
            environment[key] = nil
        }
        return environment
    }

    /// Runs `cellar arguments…` in `directory`, feeding `input`, and waits for it (bounded).
    public static func run(
        _ arguments: [String], in directory: String? = nil, input: String? = nil,
        environment: [String: String] = [:], timeout: Double = 120
    ) throws -> ChildProcess.Result {
        try Shell.run(
            executablePath, arguments, environment: cleanEnvironment.merging(environment) { $1 },
            directory: directory, input: input.map { Array($0.utf8) }, timeout: timeout)
    }

    /// Starts `cellar arguments…` without waiting, for tests that signal or race it.
    public static func start(
        _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:], pipesInput: Bool = false
    ) throws -> ChildProcess {
        try ChildProcess(
            executablePath, arguments, environment: cleanEnvironment.merging(environment) { $1 }, directory: directory,
            pipesInput: pipesInput)
    }
}
