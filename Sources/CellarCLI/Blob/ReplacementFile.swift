import CellarKit
import Glibc

/// Where `blob get FILE` writes. A regular file (or a new one) is written under a temporary name in the
/// target's folder and renamed over the target only once complete and on disk (`fsync`), so that an
/// interrupted write never leaves half a file under the final name; on any failure the temporary file
/// is removed. A FIFO or a device is written directly, as `cp` and sqlite3's `writefile()` do:
/// renaming over it would replace the pipe or `/dev/null` with a regular file its reader never sees.
///
/// The temporary file's writeback runs while it is written (``WritebackPacer``), so that the `fsync`
/// before the rename waits for the last few megabytes, not for the whole file.
final class ReplacementFile: ByteSink {
    /// The final name.
    let path: String
    /// The temporary name; nil when writing into a FIFO or a device directly.
    private let temporaryPath: String?
    private var descriptor: Int32
    /// Starts the temporary file's writeback as it grows; nil for a FIFO or a device, or once the
    /// file system turned out not to support it.
    private var pacer: WritebackPacer?
    /// The bytes written so far.
    private var bytesWritten = 0
    /// The pacer's system calls (a test fails them to see what a writeback error does).
    private let writeback: WritebackPacer.SystemCall

    /// Creates `.NAME.cellar-XXXXXX` beside `path`, or opens `path` itself when it is a FIFO or a device.
    ///
    /// - Throws: ``CommandFailure`` when `path` is a directory or a socket, or the folder is not writable.
    init(replacing path: String, writeback: @escaping WritebackPacer.SystemCall = WritebackPacer.systemCall) throws {
        self.path = path
        self.writeback = writeback
        if let kind = Self.kind(path), kind != S_IFREG {
            guard kind == S_IFIFO || kind == S_IFCHR || kind == S_IFBLK else {
                let name = kind == S_IFDIR ? "a directory" : kind == S_IFSOCK ? "a socket" : "not a file"
                throw CommandFailure(message: "'\(path)' is \(name), not a file")
            }
            // A FIFO's open waits for its reader, as cp's does.
            descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else { throw BlobInput.failure("cannot write '\(path)'", errno) }
            temporaryPath = nil
            pacer = nil
            return
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let (descriptor, temporaryPath) = UniqueFile.create(prefix: "\(folder).\(name).cellar-") else {
            throw BlobInput.failure("cannot write '\(path)'", errno)
        }
        self.descriptor = descriptor
        self.temporaryPath = temporaryPath
        pacer = WritebackPacer()
    }

    deinit {
        discard()
    }

    /// The file type bits of what is at `path` (following a symbolic link), nil when nothing is.
    static func kind(_ path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    /// Writes all of `bytes` to the temporary file (or into the FIFO or device).
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw BlobInput.failure("cannot write '\(path)'", errno) }
            offset += written
        }
        bytesWritten += bytes.count
        guard var pacer else { return }
        do {
            self.pacer = try pacer.advance(descriptor: descriptor, to: bytesWritten, calling: writeback) ? pacer : nil
        } catch let error as SystemError {
            throw BlobInput.failure("cannot write '\(path)'", error.code)
        }
    }

    /// Puts the file on disk and gives it its final name (replacing what was there), with the
    /// permissions of the file it replaces (a private file stays private), or those a newly created
    /// file gets; a FIFO or a device is only closed.
    func commit() throws {
        guard let temporaryPath else {
            let closed = close(descriptor)
            descriptor = -1
            guard closed == 0 else { throw BlobInput.failure("cannot write '\(path)'", errno) }
            return
        }
        let mask = umask(0)
        umask(mask)
        var replaced = stat()
        let mode = stat(path, &replaced) == 0 ? mode_t(replaced.st_mode) & 0o7777 : 0o666 & ~mask
        guard fchmod(descriptor, mode) == 0, fsync(descriptor) == 0 else {
            throw BlobInput.failure("cannot write '\(path)'", errno)
        }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw BlobInput.failure("cannot write '\(path)'", code)
        }
        syncFolder()
    }

    /// Removes the temporary file, unless it was committed.
    func discard() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        if let temporaryPath { unlink(temporaryPath) }
    }

    /// Makes the rename itself durable.
    private func syncFolder() {
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "."
        let handle = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard handle >= 0 else { return }
        fsync(handle)
        close(handle)
    }
}
