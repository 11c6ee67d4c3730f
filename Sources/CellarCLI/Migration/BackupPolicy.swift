import CellarKit
import Glibc

/// `--backup` and `--backup-dir` of `migrate` and `setup`: a copy of the database taken with the online
/// backup API just before the first pending change, named `<db>.<YYYYMMDDHHMMSS>.v<version>.bak`.
///
/// Beside the database `<db>` is its file name; in `--backup-dir` it is the database's path as given,
/// with `/` written `%2F` (and `%` written `%25`), so that `tenants/a/app.sqlite` and
/// `tenants/b/app.sqlite` get names of their own that say whose they are. A name already taken (a
/// second backup of the same database and version in the same second) gets `-2`, `-3`, … after the time.
struct BackupPolicy {
    static let backup = OptionSpec(
        "backup", help: "Before applying anything, copy the database to <db>.<UTC time>.v<version>.bak.")
    static let backupDir = OptionSpec(
        "backup-dir", value: "dir",
        help: "Write the backup into this folder instead of beside the database, named after the database's path.")

    /// The options that ask for it.
    static let options = [backup, backupDir]

    /// Where backups go; nil when none is asked for.
    let folder: String?
    let isEnabled: Bool

    init(_ arguments: ParsedArguments) {
        folder = arguments.value(of: Self.backupDir)
        isEnabled = arguments.has(Self.backup) || folder != nil
    }

    /// Backs `database` (at `address`, now at `version`) up and returns the backup's path, or nil when
    /// no backup was asked for or the file was empty (created by this run: there is nothing to go back to).
    func backUp(_ database: any SQLConnection, address: String, version: Int64) throws -> String? {
        guard isEnabled else { return nil }
        guard let path = DatabaseFile.path(of: address) else {
            throw CommandFailure(message: "'\(address)' has no file to back up")
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_size > 0 else { return nil }
        let permissions = UInt32(status.st_mode) & 0o7777
        let base = folder.map { DirectoryListing.join($0, Self.encodedName(of: path)) } ?? path
        let time = WallClock.compactUTCTimestamp()
        var sequence = 1
        while true {
            let backupPath = "\(base).\(time)\(sequence == 1 ? "" : "-\(sequence)").v\(version).bak"
            do {
                try database.backUp(toFile: backupPath, permissions: permissions)
                return backupPath
            } catch let error as SystemError where error.code == EEXIST && sequence < 1000 {
                sequence += 1
            } catch let error as SystemError {
                throw CommandFailure(message: "cannot back up '\(path)' to '\(backupPath)': \(error); nothing was applied")
            } catch let error as SQLiteError {
                throw CommandFailure(
                    message: "cannot back up '\(path)' to '\(backupPath)': \(error.message); nothing was applied")
            }
        }
    }

    /// `path` as one file name: `./` in front dropped, `%` and `/` percent-encoded.
    static func encodedName(of path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("./") { path = path.dropFirst(2) }
        return String(path).replacing("%", with: "%25").replacing("/", with: "%2F")
    }
}
