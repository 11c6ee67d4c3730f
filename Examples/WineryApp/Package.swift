// swift-tools-version:6.0
import PackageDescription

/// An app that embeds CellarKit: it depends on the cellar package by path, as an app kept beside a
/// checkout of cellar would.
let package = Package(
    name: "WineryApp",
    dependencies: [.package(name: "cellar", path: "../..")],
    targets: [
        .executableTarget(
            name: "WineryApp",
            dependencies: [.product(name: "CellarKit", package: "cellar")],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")]
        )
    ]
)
