import CellarKit
import Glibc

/// The shell's history file: one entry a line, created mode 0600, never followed through a symbolic
/// link, appended to after every statement so that a killed shell keeps what was typed.
final class HistoryFile {
    /// The file's path.
    let path: String
    /// The entries the file held when it was opened, oldest first.
    let loadedEntries: [String]
    private let descriptor: Int32
    private var lastEntry: String?

    /// Why the history cannot be used.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `$CELLAR_HISTORY`, or `~/.cellar_history`; nil without either (no history is kept).
    static func path(in environment: [String: String]) -> String? {
        if let path = environment["CELLAR_HISTORY"], !path.isEmpty { return path }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.cellar_history"
    }

    /// Opens (or creates) the history file and reads its entries.
    ///
    /// - Throws: ``Failure`` when the path is a symbolic link, not a regular file, or cannot be opened.
    init(path: String) throws {
        self.path = path
        let descriptor = Glibc.open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP { throw Failure(description: "\(path) is a symbolic link; history is not saved") }
            throw Failure(description: "cannot open \(path): \(SystemError(operation: "open", code: code)); history is not saved")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(descriptor)
            throw Failure(description: "\(path) is not a regular file; history is not saved")
        }
        if status.st_mode & 0o777 != 0o600 { fchmod(descriptor, 0o600) }
        self.descriptor = descriptor
        loadedEntries = Self.readEntries(descriptor)
        lastEntry = loadedEntries.last
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// The history entry for a statement typed over several lines: its lines joined by blanks.
    static func entry(for text: String) -> String {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { String($0).trimmingTrailingBlanks() }
            .joined(separator: " ")
            .trimmingTrailingBlanks()
    }

    /// Appends `entry` unless it repeats the previous one.
    ///
    /// - Returns: whether it was added.
    @discardableResult
    func append(_ entry: String) -> Bool {
        guard !entry.isEmpty, entry != lastEntry else { return false }
        lastEntry = entry
        var line = Array((entry + "\n").utf8)
        var offset = 0
        while offset < line.count {
            let written = line[offset...].withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        return true
    }

    private static func readEntries(_ descriptor: Int32) -> [String] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var position: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, position) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
            position += off_t(count)
        }
        return bytes.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }
}
