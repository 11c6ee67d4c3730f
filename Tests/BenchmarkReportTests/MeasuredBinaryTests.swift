import BenchmarkReport
import Testing

/// How cellar-bench picks the `cellar` it measures.
struct MeasuredBinaryTests {
    private static let build = ["/p/scripts/build-release", "--scratch-path", "/p/.build/bench-static"]

    @Test func staticCellarNewerThanTheSourcesIsMeasuredAsItIs() {
        let chosen = MeasuredBinary.choose(
            besidePath: "/p/.build/release/cellar", besideIsStatic: true, sourcesAreNewer: false, packageRoot: "/p")
        #expect(chosen == .beside("/p/.build/release/cellar"))
    }

    @Test func staticCellarOlderThanTheSourcesIsRebuiltNotMeasured() {
        let chosen = MeasuredBinary.choose(
            besidePath: "/p/.build/release/cellar", besideIsStatic: true, sourcesAreNewer: true, packageRoot: "/p")
        #expect(
            chosen
                == .buildStatic(
                    packageRoot: "/p", command: Self.build, reason: "/p/.build/release/cellar is older than the package's sources"
                ))
    }

    @Test(arguments: [(false, false), (false, true), (nil, false)] as [(Bool?, Bool)])
    func dynamicOrUnreadableCellarIsReplacedByAStaticBuildInItsOwnScratchPath(isStatic: Bool?, sourcesAreNewer: Bool) {
        let chosen = MeasuredBinary.choose(
            besidePath: "/p/.build/release/cellar", besideIsStatic: isStatic, sourcesAreNewer: sourcesAreNewer,
            packageRoot: "/p")
        #expect(
            chosen
                == .buildStatic(
                    packageRoot: "/p", command: Self.build, reason: "/p/.build/release/cellar is not the static release build"))
    }

    @Test func withoutAPackageADynamicCellarIsRefusedSayingWhy() {
        let chosen = MeasuredBinary.choose(
            besidePath: "/opt/cellar", besideIsStatic: false, sourcesAreNewer: false, packageRoot: nil)
        guard case .refuse(let message) = chosen else {
            Issue.record("expected a refusal, got \(chosen)")
            return
        }
        #expect(message.contains("/opt/cellar is not the static release build"))
    }

    @Test func packageRootIsTheNearestFolderWithPackageSwiftAndTheBuildScript() {
        let files: Set<String> = [
            "/work/p/Package.swift", "/work/p/scripts/build-release",
            "/work/p/.build/checkouts/dep/Package.swift",
        ]
        let root = MeasuredBinary.packageRoot(
            above: "/work/p/.build/checkouts/dep/.build/x86_64-unknown-linux-gnu/release", exists: files.contains)
        #expect(root == "/work/p")
        #expect(MeasuredBinary.packageRoot(above: "/work/p/.build/release", exists: files.contains) == "/work/p")
        #expect(MeasuredBinary.packageRoot(above: "/usr/local/bin", exists: files.contains) == nil)
    }
}
