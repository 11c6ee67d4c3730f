import CellarKit
import Glibc
import TestSupport
import Testing

/// `blob get FILE`, `.blob get` and `.backup FILE` onto what is not a regular file: a FIFO is written
/// into (its reader gets the bytes), a directory or a socket is refused and left as it was.
@Suite struct SpecialFileTargetTests {
    /// `cat` reading the FIFO at `path`, for at most 20 seconds (the old code renamed a regular file
    /// over the FIFO, and `cat` waited for a writer that never came).
    private static func reader(of path: String) throws -> ChildProcess {
        try ChildProcess("/usr/bin/timeout", ["20", "/bin/cat", path])
    }

    private static func fifo(in folder: TemporaryDirectory) -> String {
        let path = folder.file("pipe")
        mkfifo(path, 0o600)
        return path
    }

    private static func kind(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    @Test func blobGetAndShellBlobGetWriteIntoAFIFO() throws {
        let project = try BlobProject()
        let pipe = Self.fifo(in: project.folder)
        for arguments in [["blob", "get", "wine", "label", "2", pipe], ["shell"]] {
            let reader = try Self.reader(of: pipe)
            let input = arguments == ["shell"] ? Array(".blob get wine label 2 \(pipe)\n".utf8) : []
            let get = project.run(arguments, input: input)
            let read = try reader.wait(timeout: 30)
            #expect(get.status == 0, "\(get)")
            #expect(read.outputBytes == [1, 2, 3, 4, 5], "\(read)")
            #expect(Self.kind(pipe) == S_IFIFO, "the FIFO was replaced")
        }
        #expect(try project.fileNames() == ["wine.db"], "the FIFO was replaced by a regular file")
    }

    @Test func shellBackupWritesTheCopyIntoAFIFO() throws {
        let project = try BlobProject()
        let pipe = Self.fifo(in: project.folder)
        let reader = try Self.reader(of: pipe)
        let run = project.run(["shell"], input: Array(".backup \(pipe)\n".utf8))
        let read = try reader.wait(timeout: 30)
        #expect(run.status == 0 && run.error.isEmpty, "\(run)")
        #expect(Self.kind(pipe) == S_IFIFO, "the FIFO was replaced")
        let copy = project.folder.file("copy.db")
        try FileBytes.write(read.outputBytes, to: copy)
        #expect(try DatabaseFingerprint.lines(of: copy) == DatabaseFingerprint.lines(of: project.databasePath))
    }

    @Test func aDirectoryOrASocketIsRefusedAndLeftAsItWas() throws {
        let project = try BlobProject()
        let folder = project.folder.file("out")
        mkdir(folder, 0o755)
        let socketPath = project.folder.file("sock")
        let socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        for (target, kind, name) in [(folder, S_IFDIR, "a directory"), (socketPath, S_IFSOCK, "a socket")] {
            let get = project.run(["blob", "get", "wine", "label", "2", target])
            #expect(get.status == 1 && get.error.contains("'\(target)' is \(name), not a file"), "\(get)")
            let backup = project.run(["shell"], input: Array(".backup \(target)\n".utf8))
            #expect(backup.error.contains("cannot back up to '\(target)': it is \(name), not a file"), "\(backup)")
            #expect(Self.kind(target) == kind)
        }
        #expect(try DirectoryListing.fileNames(in: folder).isEmpty)
    }
}
