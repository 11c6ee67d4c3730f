import CellarKit
import Glibc

/// `--backup` and `--backup-dir` of `migrate` and `setup`: a copy of the database taken with the online
/// backup API just before the first pending change, named `<db>.<YYYYMMDDHHMMSS>.v<version>.bak`.
struct BackupPolicy {
    /// The options that ask for it.
    static let options = [
        OptionSpec("backup", help: "Before applying anything, copy the database to <db>.<UTC time>.v<version>.bak."),
        OptionSpec("backup-dir", value: "dir", help: "Write the backup into this folder instead of beside the database."),
    ]

    /// Where backups go; nil when none is asked for.
    let folder: String?
    let isEnabled: Bool

    init(_ arguments: ParsedArguments) {
        folder = arguments.value("backup-dir")
        isEnabled = arguments.has("backup") || folder != nil
    }

    /// Backs `database` (at `address`, now at `version`) up and returns the backup's path, or nil when
    /// no backup was asked for or the file was empty (created by this run: there is nothing to go back to).
    func backUp(_ database: Database, address: String, version: Int64) throws -> String? {
        guard isEnabled else { return nil }
        guard let path = DatabaseFile.path(of: address) else {
            throw CommandFailure(message: "'\(address)' has no file to back up")
        }
        let name = String(path.split(separator: "/").last ?? Substring(path))
        let base = folder.map { DirectoryListing.join($0, name) } ?? path
        let backupPath = "\(base).\(WallClock.compactUTCTimestamp()).v\(version).bak"
        var status = stat()
        guard stat(path, &status) == 0, status.st_size > 0 else { return nil }
        let permissions = UInt32(status.st_mode) & 0o7777
        do {
            try database.backup(toFile: backupPath, permissions: permissions)
        } catch let error as SystemError {
            throw CommandFailure(message: "cannot back up '\(path)' to '\(backupPath)': \(error); nothing was applied")
        } catch let error as SQLiteError {
            throw CommandFailure(message: "cannot back up '\(path)' to '\(backupPath)': \(error.message); nothing was applied")
        }
        return backupPath
    }
}
