import CellarKit
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import CellarCLI

/// What `blob get FILE` does when the kernel reports a write error while the file is written back: the
/// error is the command's (a writeback error is reported once per descriptor, so the final `fsync` would
/// not see it again), the temporary file goes, and the file it was to replace is left as it was. No disk
/// here fails on demand, so the pacer's system calls are replaced.
@Suite struct ReplacementFileTests {
    /// Enough bytes for the pacer to start two stretches and wait for the first.
    static let size = 2 * WritebackPacer.defaultStretch + 4096

    /// Writes `size` bytes of a pattern into `file` in pieces of 1 MiB.
    static func fill(_ file: ReplacementFile, size: Int = size) throws -> [UInt8] {
        let bytes = PatternBytes.bytes(count: size, seed: 26)
        var offset = 0
        while offset < size {
            let count = min(1 << 20, size - offset)
            try bytes[offset..<(offset + count)].withUnsafeBytes { try file.write($0) }
            offset += count
        }
        return bytes
    }

    /// The files in `folder`, sorted (a temporary file left behind would be one of them).
    static func names(in folder: TemporaryDirectory) throws -> [String] {
        try DirectoryListing.fileNames(in: folder.path)
    }

    /// The steps the pacer asked for, in order.
    final class Steps: Sendable {
        let recorded = Mutex<[WritebackPacer.Step]>([])
        var all: [WritebackPacer.Step] { recorded.withLock { $0 } }
        func append(_ step: WritebackPacer.Step) { recorded.withLock { $0.append(step) } }
    }

    @Test func aWritebackErrorFailsTheWriteRemovesTheTemporaryFileAndKeepsTheTarget() throws {
        let folder = TemporaryDirectory()
        let target = folder.file("photo.png")
        try FileContents.write(Array("the old photo".utf8), to: target)
        let steps = Steps()
        do {
            // Dropped at the end of this block, as `blob get` drops it when a write throws.
            let file = try ReplacementFile(replacing: target) { _, step in
                steps.append(step)
                if case .finish = step { return EIO }
                return 0
            }
            #expect {
                _ = try Self.fill(file)
            } throws: { error in
                (error as? CommandFailure)?.message == "cannot write '\(target)': \(String(cString: strerror(EIO)))"
            }
        }
        #expect(steps.all.first == .start(offset: 0, count: WritebackPacer.defaultStretch))
        #expect(steps.all.last == .finish(offset: 0, count: WritebackPacer.defaultStretch))
        #expect(try Self.names(in: folder) == ["photo.png"])
        #expect(try FileContents.read(target) == Array("the old photo".utf8))
    }

    @Test(arguments: [ENOSYS, EINVAL, ESPIPE, EOPNOTSUPP])
    func aFileSystemWithoutWritebackControlIsWrittenWithoutPacing(code: Int32) throws {
        let folder = TemporaryDirectory()
        let target = folder.file("out.bin")
        let steps = Steps()
        let file = try ReplacementFile(replacing: target) { _, step in
            steps.append(step)
            return code
        }
        let bytes = try Self.fill(file)
        try file.commit()
        // The first refusal stops the pacing: one call, not one per stretch.
        #expect(steps.all == [.start(offset: 0, count: WritebackPacer.defaultStretch)])
        #expect(try Self.names(in: folder) == ["out.bin"])
        #expect(try FileContents.read(target) == bytes)
    }
}
