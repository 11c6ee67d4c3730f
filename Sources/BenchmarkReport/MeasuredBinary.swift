/// Which `cellar` cellar-bench measures. The `cellar` target is a dependency of cellar-bench, so the one
/// beside it comes from the same build as the bench itself; when that build was not `scripts/build-release`'s
/// static one, or a source file is newer than the binary (the bench run from a build that is out of date),
/// cellar-bench builds the static binary in a scratch path of its own and measures that, so `swift run -c
/// release cellar-bench` measures what ships, built from the sources as they are.
package enum MeasuredBinary: Equatable, Sendable {
    /// The static `cellar` beside cellar-bench, built with it.
    case beside(String)
    /// Build the static binary with `command` (run in the package at `packageRoot`) and measure the one it
    /// names on its last line; `reason` says why the one beside the bench will not do.
    case buildStatic(packageRoot: String, command: [String], reason: String)
    /// Nothing can be measured: the message says why.
    case refuse(String)

    /// The folder, under the package, where cellar-bench builds the static binary: apart from `.build`'s
    /// own build so that a `swift run` holding that build's lock does not wait for itself.
    package static let staticScratchFolder = ".build/bench-static"

    /// What to measure, given the `cellar` beside cellar-bench, whether it is static (nil: not a readable
    /// ELF file), whether a file of the package's sources is newer than it, and the package that built it
    /// (nil: none found above cellar-bench, so no sources to compare or build).
    package static func choose(besidePath: String, besideIsStatic: Bool?, sourcesAreNewer: Bool, packageRoot: String?)
        -> Self
    {
        let reason: String
        if besideIsStatic != true {
            reason = "\(besidePath) is not the static release build"
        } else if sourcesAreNewer && packageRoot != nil {
            reason = "\(besidePath) is older than the package's sources"
        } else {
            return .beside(besidePath)
        }
        guard let packageRoot else {
            return .refuse("\(reason) and no package holding scripts/build-release is above it to build one")
        }
        return .buildStatic(
            packageRoot: packageRoot,
            command: [packageRoot + "/scripts/build-release", "--scratch-path", packageRoot + "/" + staticScratchFolder],
            reason: reason)
    }

    /// The package that built the executables in `folder`: the nearest folder at or above it holding
    /// `Package.swift` and `scripts/build-release`, as `exists` reports files; nil when there is none.
    package static func packageRoot(above folder: String, exists: (String) -> Bool) -> String? {
        var root = folder
        while !root.isEmpty {
            if exists(root + "/Package.swift") && exists(root + "/scripts/build-release") { return root }
            guard let slash = root.lastIndex(of: "/") else { return nil }
            root = String(root[..<slash])
        }
        return nil
    }
}
