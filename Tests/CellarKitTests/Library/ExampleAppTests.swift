import TestSupport
import Testing

/// The manual's library page (docs/library.md) is the example app's code: it quotes every file of
/// `Examples/WineryApp` exactly, so the two cannot drift apart (`.ci/run` builds and runs the app).
@Suite struct ExampleAppTests {
    static let example = PublicSurfaceTests.root + "/Examples/WineryApp"

    static func exampleFiles() throws -> [String] {
        try [example + "/Package.swift"] + FileBytes.files(under: example + "/Sources", endingWith: ".swift")
    }

    @Test func theLibraryPageQuotesEveryFileOfTheExampleApp() throws {
        let library = try PublicSurfaceTests.libraryPage()
        let files = try Self.exampleFiles()
        #expect(files.count == 3)
        for path in files {
            let relative = path.dropFirst(PublicSurfaceTests.root.count + 1)
            #expect(library.contains("`\(relative)`"), "docs/library.md does not name \(relative)")
            let text = try FileBytes.readText(path)
            #expect(library.contains("```swift\n" + text + "```\n"), "docs/library.md does not quote \(relative) as it is")
        }
    }
}
