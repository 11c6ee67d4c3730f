// swift-tools-version:6.0
import PackageDescription

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
            name: "CReadline",
            providers: [.apt(["libreadline-dev"])]
        ),
        .target(
            name: "CellarKit",
            dependencies: ["CSQLite"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "CellarCLI",
            dependencies: ["CellarKit", "CReadline"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "cellar",
            dependencies: ["CellarCLI"],
            swiftSettings: strictSettings,
            // A static standard library starts faster (SPEC's --version target). FoundationEssentials
            // (CellarKit's Data conformance) does not autolink its own dependencies when linked
            // statically, so they are named here.
            linkerSettings: [
                .unsafeFlags(
                    ["-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims", "-lswiftSynchronization"],
                    .when(configuration: .release))
            ]
        ),
        .executableTarget(
            name: "cellar-bench",
            dependencies: ["CellarKit"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: ["CellarKit"],
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
            dependencies: ["CellarCLI", "CellarKit", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["CellarKit", "TestSupport"],
            swiftSettings: strictSettings
        ),
    ]
)
