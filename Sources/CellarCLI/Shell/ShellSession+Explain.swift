import CellarKit

/// sqlite3's `.explain` and `.eqp`: the bytecode listing of `EXPLAIN` in sqlite3's fixed-width layout
/// (loops indented), and `EXPLAIN QUERY PLAN` as a tree.
extension ShellSession {
    /// `.explain on|off|auto`: how statements are laid out.
    enum ExplainLayout: String {
        /// Every result in the listing's layout.
        case on
        /// Every result in the output mode.
        case off
        /// `EXPLAIN` as a listing, `EXPLAIN QUERY PLAN` as a tree, the rest in the output mode (the default).
        case auto
    }

    /// `.eqp on|off|trigger|full`: what is shown before each statement's result.
    enum PlanDisplay: String {
        /// Nothing.
        case off
        /// The query plan.
        case on
        /// The query plan, with the plans of the triggers it fires.
        case trigger
        /// The query plan with the triggers', then the `EXPLAIN` listing.
        case full
    }

    /// sqlite3's column widths for the listing: `addr opcode p1 p2 p3 p4 p5 comment`; 10 for others.
    private static let listingWidths = [4, 13, 4, 4, 4, 13, 2, 13]

    /// `.explain [on|off|auto]`: no argument is `on`, as in sqlite3; a word that is not a boolean
    /// is off, with a warning.
    func setExplain(_ command: DotCommandLine) {
        guard let argument = command.arguments.first else {
            settings.explain = .on
            return
        }
        settings.explain = argument == "auto" ? .auto : onOff(command) ? .on : .off
    }

    /// `.eqp on|off|trigger|full`.
    func setPlanDisplay(_ command: DotCommandLine) {
        let argument = command.arguments.first ?? ""
        if let display = PlanDisplay(rawValue: argument), display == .trigger || display == .full {
            settings.plan = display
        } else {
            settings.plan = onOff(command) ? .on : .off
        }
    }

    /// 1 for `EXPLAIN`, 2 for `EXPLAIN QUERY PLAN`, 0 for any other statement, as its engine tells
    /// (``SQLStatement/explainKind``).
    func explainKind(of statement: some SQLStatement) -> Int {
        statement.explainKind
    }

    /// Writes `statement`'s result the way `.explain` asks, when it asks for more than the output
    /// mode: returns false when the result is the output mode's to write.
    func printExplained(_ statement: some SQLStatement) throws -> Bool {
        let kind = explainKind(of: statement)
        switch (settings.explain, kind) {
        case (.on, _), (.auto, 1):
            try printListing(statement, indentsLoops: kind == 1)
        case (.auto, 2):
            try printPlanTree(statement)
        default:
            return false
        }
        try output.flush()
        return true
    }

    /// `.eqp`: the plan of the statement `sql` (and for `full` its listing) before its result; nothing
    /// for a statement that is itself an `EXPLAIN`.
    func showPlan(of statement: some SQLStatement, on connection: some SQLConnection) throws {
        guard settings.plan != .off, explainKind(of: statement) == 0 else { return }
        let explain = {
            try self.printPlanTree(try self.preparedWithParameters("EXPLAIN QUERY PLAN " + statement.sql, on: connection))
            if self.settings.plan == .full {
                try self.printListing(
                    try self.preparedWithParameters("EXPLAIN " + statement.sql, on: connection), indentsLoops: true)
            }
        }
        // `trigger` and `full` ask SQLite for the triggers' plans too (read when a statement is
        // prepared), for this statement only.
        try settings.plan == .on ? explain() : connection.withTriggerPlans(explain)
    }

    private func preparedWithParameters(_ sql: String, on connection: some SQLConnection) throws -> any SQLStatement {
        let statement = try connection.prepareSingle(sql)
        if statement.parameterCount > 0 {
            for index in 1...statement.parameterCount {
                guard let name = statement.parameterName(at: index), let value = parameters[name] else { continue }
                try statement.bind(value, at: index)
            }
        }
        return statement
    }

    /// The rows of an `EXPLAIN QUERY PLAN` as sqlite3 draws them: `QUERY PLAN`, then the tree. A first
    /// row `-- TRIGGER name` (from `.eqp trigger`) stands in for the heading, without its dashes.
    private func printPlanTree(_ statement: some SQLStatement) throws {
        var nodes: [(id: Int64, parent: Int64, detail: String)] = []
        while try statement.step() {
            guard statement.columnCount >= 4 else { continue }
            nodes.append((statement.int64(at: 0), statement.int64(at: 1), statement.value(at: 3).textValue ?? ""))
        }
        guard let first = nodes.first else { return }
        if first.detail.hasPrefix("-") {
            guard nodes.count > 1 else { return }
            writeOutput(shown(String(first.detail.dropFirst(3))))
            nodes.removeFirst()
        } else {
            writeOutput("QUERY PLAN")
        }
        writePlan(nodes, parent: 0, indent: "")
    }

    private func writePlan(_ nodes: [(id: Int64, parent: Int64, detail: String)], parent: Int64, indent: String) {
        let children = nodes.filter { $0.parent == parent }
        for (index, child) in children.enumerated() {
            let isLast = index == children.count - 1
            writeOutput(indent + (isLast ? "`--" : "|--") + shown(child.detail))
            writePlan(nodes, parent: child.id, indent: indent + (isLast ? "   " : "|  "))
        }
    }

    /// A result in sqlite3's listing layout (its first eight columns): a heading cut to the widths
    /// and a dashed line, then each cell padded to its column's width (longer text written whole,
    /// the last cell not padded), two spaces between. For an `EXPLAIN`, the opcodes inside a loop are
    /// indented two spaces per loop, by sqlite3's rules, before their padded cell.
    private func printListing(_ statement: some SQLStatement, indentsLoops: Bool) throws {
        let widths = Array(Self.listingWidths.prefix(statement.columnCount))
        func writeHeading() {
            let names = statement.columnNames
            writeOutput(shown(zip(names, widths).map { Self.padded(String($0.prefix($1)), to: $1) }.joined(separator: "  ")))
            writeOutput(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        }
        func cells() -> [String] {
            widths.indices.map { index in
                statement.storageClass(at: index) == .null
                    ? settings.render.nullValue
                    : statement.withTextBytes(at: index) { String(decoding: $0, as: UTF8.self) }
            }
        }
        func writeRow(_ cells: [String], indent: Int) {
            let text = cells.enumerated().map { index, cell in
                (index == 1 ? String(repeating: " ", count: indent) : "")
                    + (index == cells.count - 1 ? cell : Self.padded(cell, to: widths[index]))
            }
            writeOutput(shown(text.joined(separator: "  ")))
        }
        guard indentsLoops else {
            // Any result under `.explain on`: streamed, without indents.
            var isFirst = true
            while try statement.step() {
                if isFirst { writeHeading() }
                isFirst = false
                writeRow(cells(), indent: 0)
            }
            return
        }
        // An EXPLAIN's listing is read whole first: an opcode's indent depends on later ones.
        var rows: [[String]] = []
        while try statement.step() { rows.append(cells()) }
        guard !rows.isEmpty else { return }
        writeHeading()
        for (row, indent) in zip(rows, Self.loopIndents(rows)) { writeRow(row, indent: indent) }
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(width - text.unicodeScalars.count, 0))
    }

    /// How far each opcode of an `EXPLAIN` listing is indented, by sqlite3's rules: two spaces for each
    /// `Next`-like opcode jumping back over it, and for each `Goto` jumping back to a `Yield`-like
    /// opcode (or with P1 set) over it. Addresses restart in a trigger's program, hence `p2 + (row - addr)`.
    static func loopIndents(_ rows: [[String]]) -> [Int] {
        let nexts: Set<String> = ["Next", "Prev", "VPrev", "VNext", "SorterNext", "Return"]
        let yields: Set<String> = ["Yield", "SeekLT", "SeekGT", "RowSetRead", "Rewind"]
        var indents = [Int](repeating: 0, count: rows.count)
        var isYield = [Bool](repeating: false, count: rows.count)
        for (row, cells) in rows.enumerated() where cells.count >= 4 {
            let address = Int(cells[0]) ?? 0
            let opcode = cells[1]
            let target = (Int(cells[3]) ?? 0) + (row - address)
            isYield[row] = yields.contains(opcode)
            if nexts.contains(opcode), target > 0 {
                for index in max(target, 0)..<row { indents[index] += 2 }
            }
            if opcode == "Goto", target >= 0, target <= row, isYield[target] || (Int(cells[2]) ?? 0) != 0 {
                for index in target..<row { indents[index] += 2 }
            }
        }
        return indents
    }
}
