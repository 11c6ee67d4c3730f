import TestSupport
import Testing

/// The manual as a reader meets it: a short front page, docs/ with every part, and links that lead
/// somewhere inside the repository (a moved section or a renamed heading breaks one).
@Suite struct ManualTests {
    /// Every Markdown file of the manual: README.md and everything under docs/.
    static func pages() throws -> [String] {
        try ["README.md"]
            + FileBytes.files(under: Repository.root + "/docs", endingWith: ".md").map {
                String($0.dropFirst(Repository.root.count + 1))
            }.sorted()
    }

    @Test func theReadmeIsAFrontPageOfAtMost15KB() throws {
        let readme = try FileBytes.readText(Repository.root + "/README.md")
        #expect(readme.utf8.count <= 15_000, "README.md is \(readme.utf8.count) bytes")
    }

    @Test(arguments: [
        "docs/README.md", "docs/migrator/README.md", "docs/migrator/files.md", "docs/migrator/ledger.md",
        "docs/migrator/applying.md", "docs/migrator/seeds.md", "docs/migrator/recovery.md", "docs/shell/README.md",
        "docs/scripts-and-data.md", "docs/deployments.md", "docs/library.md", "docs/reference/commands.md",
        "docs/internals/README.md", "docs/internals/choices.md", "docs/internals/safety.md",
        "docs/internals/reliability.md", "docs/internals/performance.md", "docs/internals/development.md",
    ])
    func theManualHasThePart(path: String) throws {
        let text = try FileBytes.readText(Repository.root + "/" + path)
        #expect(text.hasPrefix("# "), "\(path) does not start with a title")
    }

    @Test func everyPageIsLinkedFromTheIndexOrAPageItLinks() throws {
        let pages = try Self.pages()
        var reached: Set<String> = ["README.md"]
        var queue = ["README.md"]
        while let page = queue.popLast() {
            for link in try Self.links(in: page) {
                guard case .local(let path, _) = link.target, path.hasSuffix(".md") || path.hasSuffix("/") else { continue }
                let file = path.hasSuffix("/") ? path + "README.md" : path
                guard FileBytes.exists(Repository.root + "/" + file) else { continue }  // the next test names it
                if reached.insert(file).inserted { queue.append(file) }
            }
        }
        let unreached = pages.filter { !reached.contains($0) }
        #expect(unreached.isEmpty, "pages no link leads to from README.md: \(unreached)")
    }

    @Test func everyRelativeLinkResolvesInsideTheRepository() throws {
        var problems: [String] = []
        for page in try Self.pages() {
            for link in try Self.links(in: page) {
                switch link.target {
                case .web: continue
                case .outside(let target): problems.append("\(page):\(link.line): \(target) points outside the repository")
                case .local(let path, let anchor):
                    let full = Repository.root + "/" + path
                    guard FileBytes.exists(full) else {
                        problems.append("\(page):\(link.line): \(path) does not exist")
                        continue
                    }
                    guard let anchor, path.hasSuffix(".md") else { continue }
                    if !(try Self.anchors(of: path)).contains(anchor) {
                        problems.append("\(page):\(link.line): \(path) has no heading #\(anchor)")
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func theLinkReaderFindsLinksOutsideCodeOnly() {
        let text = """
            See [the ledger](migrator/ledger.md#the-ledger-tables) and [SQLite](https://sqlite.org/lang.html).
            `[UInt8](data)` is code, and so is this:
            ```
            [not](a-link.md)
            ```
            [up](../../etc/passwd) [abs](/etc/passwd) [here](#top)
            [ref]: docs/README.md
            """
        let links = Self.links(inText: text, page: "docs/x.md")
        #expect(links.map(\.line) == [1, 1, 6, 6, 6, 7])
        #expect(links[0].target == .local(path: "docs/migrator/ledger.md", anchor: "the-ledger-tables"))
        #expect(links[1].target == .web)
        #expect(links[2].target == .outside("../../etc/passwd"))
        #expect(links[3].target == .outside("/etc/passwd"))
        #expect(links[4].target == .local(path: "docs/x.md", anchor: "top"))
        #expect(links[5].target == .local(path: "docs/docs/README.md", anchor: nil))
        #expect(
            Self.slug("Blobs: `cellar blob put|get TABLE COLUMN ROWID FILE|-`")
                == "blobs-cellar-blob-putget-table-column-rowid-file-")
        #expect(Self.slug("Choices where the spec is silent") == "choices-where-the-spec-is-silent")
    }

    // MARK: - Reading Markdown

    struct Link {
        enum Target: Equatable {
            case web
            case outside(String)
            case local(path: String, anchor: String?)
        }
        let line: Int
        let target: Target
    }

    static func links(in page: String) throws -> [Link] {
        links(inText: try FileBytes.readText(Repository.root + "/" + page), page: page)
    }

    /// The links of a page, outside fenced blocks and code spans: inline `[text](target)` and reference
    /// definitions `[name]: target`, each resolved against the page's folder.
    static func links(inText text: String, page: String) -> [Link] {
        var links: [Link] = []
        for (number, line) in proseLines(text) {
            let prose = withoutCodeSpans(line)
            var targets = prose.matches(of: /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/).map { String($0.output.1) }
            if let definition = prose.wholeMatch(of: /\s*\[[^\]]+\]:\s*(\S+).*/) { targets.append(String(definition.output.1)) }
            links += targets.map { Link(line: number, target: resolve($0, from: page)) }
        }
        return links
    }

    static func resolve(_ target: String, from page: String) -> Link.Target {
        if target.hasPrefix("https://") || target.hasPrefix("http://") || target.hasPrefix("mailto:") { return .web }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let anchor = parts.count > 1 ? String(parts[1]) : nil
        if parts[0].isEmpty { return .local(path: page, anchor: anchor) }
        if parts[0].hasPrefix("/") || parts[0].contains("://") { return .outside(target) }
        var components = page.split(separator: "/").dropLast().map(String.init)
        for component in parts[0].split(separator: "/", omittingEmptySubsequences: false) {
            switch component {
            case ".", "": continue
            case "..":
                if components.isEmpty { return .outside(target) }
                components.removeLast()
            default: components.append(String(component))
            }
        }
        let path = components.joined(separator: "/") + (parts[0].hasSuffix("/") ? "/" : "")
        return .local(path: path, anchor: anchor)
    }

    /// The anchors GitHub gives a page's headings (duplicates numbered -1, -2, …).
    static func anchors(of page: String) throws -> Set<String> {
        var counts: [String: Int] = [:]
        var anchors: Set<String> = []
        for (_, line) in proseLines(try FileBytes.readText(Repository.root + "/" + page)) {
            guard let heading = line.wholeMatch(of: /#{1,6} (.*)/) else { continue }
            let slug = slug(String(heading.output.1))
            let seen = counts[slug, default: 0]
            anchors.insert(seen == 0 ? slug : "\(slug)-\(seen)")
            counts[slug] = seen + 1
        }
        return anchors
    }

    /// GitHub's heading anchor: lower case, letters, digits, `_`, `-` kept, spaces to `-`, the rest dropped.
    static func slug(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "_" || character == "-" ? character : nil
            })
    }

    /// The numbered lines of `text` that are not inside a fenced code block.
    static func proseLines(_ text: String) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        var fence: String?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix { $0 == "`" || $0 == "~" })
                continue
            }
            lines.append((index + 1, String(line)))
        }
        return lines
    }

    /// `line` with its code spans (`` `…` ``) removed.
    static func withoutCodeSpans(_ line: String) -> String {
        line.replacing(/(`+).*?\1/, with: "")
    }
}
