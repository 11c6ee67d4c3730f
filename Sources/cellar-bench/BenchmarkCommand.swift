/// One program run to measure: what it is, where its standard input comes from and where its
/// output goes.
struct BenchmarkCommand {
    let executable: String
    let arguments: [String]
    /// A file fed to standard input (empty input when nil).
    var inputPath: String?
    /// Where standard output goes.
    var outputPath = "/dev/null"
}
