// swift-tools-version:6.2
import Foundation
import PackageDescription

/// The line editor the shell links: GNU readline (GPL-3.0-or-later) by default, or libedit (BSD) with
/// `CELLAR_LINE_EDITOR=libedit`, for a binary that is not bound by the GPL.
let lineEditor = ProcessInfo.processInfo.environment["CELLAR_LINE_EDITOR"] ?? "readline"
guard ["readline", "libedit"].contains(lineEditor) else {
    fatalError("CELLAR_LINE_EDITOR must be readline or libedit, not '\(lineEditor)'")
}
let usesLibedit = lineEditor == "libedit"

/// Settings every Swift target shares: Swift 6 mode with the upcoming features the house style asks for.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "cellar",
    products: [
        .library(name: "CellarKit", targets: ["CellarKit"]),
        .executable(name: "cellar", targets: ["cellar"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CReadline",
            providers: [.apt(["libreadline-dev"])]
        ),
        .systemLibrary(
            name: "CLibedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .target(
            name: "CellarKit",
            dependencies: ["CSQLite"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "DqliteClient",
            swiftSettings: strictSettings
        ),
        .target(
            name: "CellarDqlite",
            dependencies: ["CellarKit", "DqliteClient", "CSQLite"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CellarCLI",
            dependencies: ["CellarKit", "CellarDqlite", "CZlib", usesLibedit ? "CLibedit" : "CReadline"],
            swiftSettings: strictSettings + (usesLibedit ? [.define("CELLAR_LIBEDIT")] : [])
        ),
        .executableTarget(
            name: "cellar",
            dependencies: ["CellarCLI"],
            swiftSettings: strictSettings,
            // Every release build links the Swift runtime into the executable (scripts/build-release
            // links everything statically): no dynamic loading of the runtime at start-up.
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "cellar-bench",
            dependencies: ["BenchmarkReport", "CellarKit", "CellarCLI", "cellar"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BenchmarkReport",
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: ["CellarKit", "CSQLite"],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CellarKitTests",
            dependencies: ["CellarKit", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CellarCLITests",
            dependencies: ["CellarCLI", "CellarDqlite", "CellarKit", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CellarDqliteTests",
            dependencies: ["CellarDqlite", "CellarKit", "DqliteClient", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DqliteClientTests",
            dependencies: ["DqliteClient", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BenchmarkReportTests",
            dependencies: ["BenchmarkReport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["CellarKit", "TestSupport"],
            swiftSettings: strictSettings
        ),
    ]
)
