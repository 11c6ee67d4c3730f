import CellarKit
import Glibc
import TestSupport
import Testing

/// CellarKit's public face is deliberate: every public type is listed in the manual's library page
/// (docs/library.md), library messages
/// name no CLI flag, and apps get the sinks they need to print a result.
@Suite struct PublicSurfaceTests {
    /// The repository's root, found from this file's path (`Tests/CellarKitTests/Library/…`).
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)
        return parts.joined(separator: "/")
    }()

    /// Names declared `public` at any depth in CellarKit's sources.
    static func publicTypeNames() throws -> Set<String> {
        var names: Set<String> = []
        for path in try FileBytes.files(under: root + "/Sources/CellarKit", endingWith: ".swift") {
            for line in try FileBytes.readText(path).split(separator: "\n") {
                let words = line.split(separator: " ")
                guard words.first == "public" || (words.first == "@frozen" && words.dropFirst().first == "public") else {
                    continue
                }
                let rest = words.drop { $0 == "public" || $0 == "@frozen" || $0 == "final" }
                guard let kind = rest.first, ["class", "struct", "enum", "protocol", "typealias"].contains(kind),
                    let name = rest.dropFirst().first
                else { continue }
                names.insert(String(name.prefix { $0.isLetter || $0.isNumber }))
            }
        }
        return names
    }

    /// The manual's page about the library, docs/library.md.
    static func libraryPage() throws -> String {
        try FileBytes.readText(root + "/docs/library.md")
    }

    @Test func everyPublicTypeIsListedInTheLibraryPage() throws {
        let listed = try Self.libraryPage()
        let names = try Self.publicTypeNames()
        #expect(names.contains("Database") && names.contains("ResultRenderer"))
        let missing = names.filter { !listed.contains("`\($0)`") }.sorted()
        #expect(missing.isEmpty, "public but not in docs/library.md: \(missing)")
    }

    @Test(arguments: [
        MigrationError.outOfOrder(paths: ["0002_b.sql"], newestApplied: 3),
        .changedAfterApply(version: 3, path: "0003_c.sql"),
        .nonTransactionalInAllOrNothing(path: "0004_d.sql"),
        .missingFolder(path: "migrations"),
        .noDownSection(path: "0001_a.sql"),
    ])
    func libraryMessagesNameNoCommandLineFlag(_ error: MigrationError) {
        for flagOrCommand in ["--allow-out-of-order", "--all-or-nothing", "--autocommit", "--safe", "cellar accept"] {
            #expect(!error.description.contains(flagOrCommand), "\(error.description)")
        }
    }

    @Test func anAppCanRenderToAFileDescriptorSink() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        let db = try Database(path: ":memory:")
        let renderer = ResultRenderer(sink: FileDescriptorSink(descriptor: descriptors[1]), options: RenderOptions(mode: .list))
        try renderer.render(try db.prepare("SELECT 'Ridge', 4"))
        try renderer.flush()
        close(descriptors[1])
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptors[0], &buffer, buffer.count)
        #expect(String(decoding: buffer[0..<max(count, 0)], as: UTF8.self) == "Ridge|4\n")
    }
}
