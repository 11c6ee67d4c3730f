import CellarKit
import TestSupport
import Testing

@testable import CellarCLI

/// `.pager`'s arguments and its `--safe` rule, in-process (paging itself needs a terminal: see
/// `ShellPagerTerminalTests`).
@Suite struct ShellPagerCommandTests {
    let folder = TemporaryDirectory()

    private func shell(_ input: String, _ extra: [String] = [], pager: String? = nil) -> InProcessRun {
        var environment = ["HOME": folder.path]
        if let pager { environment["PAGER"] = pager }
        return InProcessRun(["shell", "-d", folder.file("p.db")] + extra, input: input, environment: environment)
    }

    @Test(
        arguments: [
            (".pager\n", nil, "pager: off\n"),
            (".pager on\n.pager\n", "most -s", "pager: on (most -s)\n"),
            (".pager on\n.pager\n", nil, "pager: on (less)\n"),
            (".pager 'cat -n'\n.pager\n", nil, "pager: on (cat -n)\n"),
            (".pager cat -n\n.pager\n.pager off\n.pager\n", nil, "pager: on (cat -n)\npager: off\n"),
        ] as [(String, String?, String)])
    func theSettingIsShown(input: String, pager: String?, expected: String) {
        let run = shell(input, pager: pager)
        #expect(run.output == expected)
        #expect(run.status == 0)
    }

    @Test func safeRefusesACommandButNotThePagerOfTheEnvironment() {
        let refused = shell(".pager rm -rf x\n.pager\n", ["--safe"])
        #expect(refused.error.contains(".pager COMMAND is not allowed with --safe"))
        #expect(refused.output == "pager: off\n")
        #expect(refused.status != 0)
        let accepted = shell(".pager on\n.pager\n", ["--safe"], pager: "less")
        #expect(accepted.output == "pager: on (less)\n")
        #expect(accepted.status == 0)
    }
}
