import CellarKit
import Glibc

/// What `blob put` reads: a file or standard input, with the number of bytes it holds.
///
/// A regular file (or standard input redirected from one) says its size. Input that cannot — a pipe,
/// a terminal, a FIFO — streams directly when `--size` gives it; otherwise it is first spooled to an
/// unlinked temporary file beside the database (the folder that has to hold the blob anyway, and
/// never memory), whose size is then known. A blob's size is fixed once the cell holds it, so there
/// is no way to grow it while reading.
final class BlobInput {
    /// The bytes.
    let source: any ByteSource
    /// How many there are.
    let size: Int
    /// A descriptor this input opened and closes.
    private let ownedDescriptor: Int32?
    /// The spool this input reads, kept open as long as this input.
    private let spool: BlobInput?

    private init(source: any ByteSource, size: Int, ownedDescriptor: Int32?, spool: BlobInput? = nil) {
        self.source = source
        self.size = size
        self.ownedDescriptor = ownedDescriptor
        self.spool = spool
    }

    deinit {
        if let ownedDescriptor { close(ownedDescriptor) }
    }

    /// Opens the input of `request`.
    ///
    /// - Parameters:
    ///   - standardInput: what `-` reads.
    ///   - spoolFolder: where input of unknown size is spooled.
    ///   - limit: the most bytes a value may hold; spooling stops with an error beyond it.
    ///   - cancellation: checked between spooled chunks.
    static func open(
        _ request: BlobRequest, standardInput: any ByteSource, spoolFolder: String, limit: Int,
        cancellation: CancellationFlag?
    ) throws -> BlobInput {
        if request.path == "-" {
            guard let descriptor = (standardInput as? FileDescriptorSource)?.descriptor else {
                return try streamOrSpool(
                    standardInput, request: request, folder: spoolFolder, limit: limit, cancellation: cancellation)
            }
            if let size = remainingRegularFileSize(descriptor) {
                return BlobInput(source: standardInput, size: request.declaredSize ?? size, ownedDescriptor: nil)
            }
            let source = CancellableSource(descriptor: descriptor, cancellation: cancellation)
            return try streamOrSpool(source, request: request, folder: spoolFolder, limit: limit, cancellation: cancellation)
        }
        let descriptor = Glibc.open(request.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("cannot read '\(request.path)'", errno) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw CommandFailure(message: "'\(request.path)' is a directory, not a file")
        }
        if let size = remainingRegularFileSize(descriptor) {
            return BlobInput(
                source: FileDescriptorSource(descriptor: descriptor), size: request.declaredSize ?? size,
                ownedDescriptor: descriptor)
        }
        // A FIFO or a device: like a pipe on standard input.
        let source = CancellableSource(descriptor: descriptor, cancellation: cancellation)
        let input = try streamOrSpool(source, request: request, folder: spoolFolder, limit: limit, cancellation: cancellation)
        return BlobInput(source: input.source, size: input.size, ownedDescriptor: descriptor, spool: input)
    }

    /// Streams `source` directly when `--size` says how long it is, or spools it.
    private static func streamOrSpool(
        _ source: any ByteSource, request: BlobRequest, folder: String, limit: Int, cancellation: CancellationFlag?
    ) throws -> BlobInput {
        if let size = request.declaredSize { return BlobInput(source: source, size: size, ownedDescriptor: nil) }
        return try spool(source, request: request, folder: folder, limit: limit, cancellation: cancellation)
    }

    /// The bytes left in `descriptor` when it is a regular file, or nil.
    private static func remainingRegularFileSize(_ descriptor: Int32) -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let position = lseek(descriptor, 0, SEEK_CUR)
        return Int(status.st_size) - Int(max(position, 0))
    }

    /// Copies `source` into an unlinked temporary file in `folder` and returns it, rewound.
    private static func spool(
        _ source: any ByteSource, request: BlobRequest, folder: String, limit: Int, cancellation: CancellationFlag?
    ) throws -> BlobInput {
        guard let (descriptor, path) = UniqueFile.create(prefix: "\(folder)/.cellar-blob-") else {
            throw failure("cannot create a spool file in '\(folder)'", errno)
        }
        // Unlinked at once: the spool vanishes with the process, however it ends.
        unlink(path)
        let spool = FileDescriptorSink(descriptor: descriptor, isBuffered: false)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var total = 0
        do {
            while true {
                if cancellation?.isCancelled == true { throw CommandFailure(message: "interrupted") }
                let count = try source.read(into: buffer)
                if count == 0 { break }
                total += count
                guard total <= limit else {
                    throw BlobError(
                        table: request.table, column: request.column, rowID: request.rowID,
                        reason: .tooBig(size: total, limit: limit))
                }
                try spool.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
        } catch {
            close(descriptor)
            throw error
        }
        lseek(descriptor, 0, SEEK_SET)
        return BlobInput(source: FileDescriptorSource(descriptor: descriptor), size: total, ownedDescriptor: descriptor)
    }

    static func failure(_ what: String, _ code: Int32) -> CommandFailure {
        CommandFailure(message: "\(what): \(String(cString: strerror(code)))")
    }
}
