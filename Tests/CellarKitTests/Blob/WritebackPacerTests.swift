import CellarKit
import Glibc
import TestSupport
import Testing

/// ``WritebackPacer``: which ranges of a file it starts writing back and waits for, however the file's
/// bytes arrive, and that a file written through it reads back byte for byte.
@Suite struct WritebackPacerTests {
    static let stretch = WritebackPacer.defaultStretch

    /// What a pacer must ask for a file of `size` bytes: every whole stretch started in order, and each
    /// stretch but the last whole one waited for right after the start of the next.
    static func expectedSteps(size: Int, stretch: Int) -> [WritebackPacer.Step] {
        var steps: [WritebackPacer.Step] = []
        for index in 0..<(size / stretch) {
            steps.append(.start(offset: index * stretch, count: stretch))
            if index > 0 { steps.append(.finish(offset: (index - 1) * stretch, count: stretch)) }
        }
        return steps
    }

    /// The steps a pacer asks for while `size` bytes arrive in pieces of `piece` bytes, each with the
    /// bytes written when it was asked for.
    static func steps(size: Int, piece: Int, stretch: Int) -> [(step: WritebackPacer.Step, written: Int)] {
        var pacer = WritebackPacer(stretch: stretch)
        var steps: [(step: WritebackPacer.Step, written: Int)] = []
        var written = 0
        repeat {
            written = min(size, written + piece)
            pacer.advance(to: written) { steps.append(($0, written)) }
        } while written < size
        return steps
    }

    @Test(arguments: [0, 1, stretch - 1, stretch, stretch + 1, 2 * stretch, 3 * stretch + 5])
    func everyWholeStretchIsStartedOnceInOrderAndThePreviousOneWaitedFor(size: Int) {
        for piece in [1 << 18, 7 << 16 + 3, Self.stretch - 1, Self.stretch, Self.stretch + 1, 3 * Self.stretch] {
            let steps = Self.steps(size: size, piece: piece, stretch: Self.stretch)
            #expect(steps.map(\.step) == Self.expectedSteps(size: size, stretch: Self.stretch), "piece \(piece)")
            for (step, written) in steps {
                // Never a range that is not written yet: its pages are not in the file to write back.
                guard case .start(let offset, let count) = step else { continue }
                #expect(offset + count <= written, "piece \(piece): \(step) with \(written) written")
            }
        }
    }

    @Test func aPieceByteByByteMeetsEveryBoundaryExactly() {
        // A tiny stretch, one byte at a time: each start comes with the very byte that completes it.
        let steps = Self.steps(size: 10, piece: 1, stretch: 3)
        #expect(
            steps.map(\.step) == [
                .start(offset: 0, count: 3), .start(offset: 3, count: 3), .finish(offset: 0, count: 3),
                .start(offset: 6, count: 3), .finish(offset: 3, count: 3),
            ])
        #expect(steps.map(\.written) == [3, 6, 6, 9, 9])
    }

    /// A small stretch keeps the test fast; `BlobCommandTests` writes files of the default one's sizes.
    static let smallStretch = 1 << 16

    @Test(arguments: [0, 1, smallStretch, smallStretch + 1, 2 * smallStretch + 1, 5 * smallStretch + 4097])
    func aFileWrittenThroughThePacerReadsBackByteForByte(size: Int) throws {
        let folder = TemporaryDirectory()
        let path = folder.file("paced.bin")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let bytes = PatternBytes.bytes(count: size, seed: UInt64(size) + 17)
        var pacer = WritebackPacer(stretch: Self.smallStretch)
        var written = 0
        // Pieces of an odd size, so that stretch boundaries fall inside a write.
        while written < size {
            let count = min(size - written, 33_333)
            let result = bytes[written..<(written + count)].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, count) }
            #expect(result == count)
            written += count
            #expect(try pacer.advance(descriptor: descriptor, to: written))
        }
        #expect(fsync(descriptor) == 0)
        #expect(pacer.started == size / Self.smallStretch * Self.smallStretch)
        #expect(try FileContents.read(path) == bytes)
    }
}
