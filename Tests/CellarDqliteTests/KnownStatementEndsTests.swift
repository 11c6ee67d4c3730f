import CellarKit
import Testing

@testable import CellarDqlite

/// A kept text gives the bounds the boundary scanner finds, and only for the same bytes.
@Suite struct KnownStatementEndsTests {
    private func bounds(_ known: inout KnownStatementEnds, _ text: String) -> (first: Int, end: Int, isComplete: Bool)? {
        Array(text.utf8).withUnsafeBufferPointer { known.bounds(of: $0) }
    }

    private func remember(_ known: inout KnownStatementEnds, _ text: String) {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            let first = SQLLexer.statementStart(in: buffer, from: 0)
            let found = StatementBoundaryScanner.firstEnd(in: buffer, from: first)
            known.remember(buffer, first: first, end: found ?? buffer.count, isComplete: found != nil)
        }
    }

    @Test func aKeptTextGivesTheScannersBounds() {
        var known = KnownStatementEnds()
        let text = "  -- lead\n SELECT 'a;b' FROM t; -- tail"
        #expect(bounds(&known, text) == nil)
        remember(&known, text)
        let kept = bounds(&known, text)
        let scanned = Array(text.utf8).withUnsafeBufferPointer { buffer in
            let first = SQLLexer.statementStart(in: buffer, from: 0)
            return (first, StatementSplitter.end(in: buffer, from: first))
        }
        #expect(kept?.first == scanned.0 && kept?.end == scanned.1 && kept?.isComplete == true)
        let open = "SELECT 1 -- no semicolon"
        remember(&known, open)
        #expect(bounds(&known, open)?.isComplete == false)
        #expect(bounds(&known, open)?.end == open.utf8.count)
    }

    /// A text of the same length that differs in one byte (where the `;` is) is not taken for a kept one.
    @Test func aTextOfTheSameLengthIsNotTakenForAnother() {
        var known = KnownStatementEnds()
        remember(&known, "SELECT 1;  ")
        #expect(bounds(&known, "SELECT 1 ; ") == nil)
        #expect(bounds(&known, "SELECT 1;  ")?.end == 9)
    }

    /// The texts used again stay while texts used once pass through.
    @Test func textsUsedAgainOutlastTextsUsedOnce() {
        var known = KnownStatementEnds()
        let repeated = ["BEGIN IMMEDIATE", "SELECT EXISTS (SELECT 1 FROM ledger WHERE version = ?)"]
        for index in 0..<(KnownStatementEnds.limit * 4) {
            for text in repeated where bounds(&known, text) == nil { remember(&known, text) }
            remember(&known, "INSERT INTO t_\(index) VALUES (1)")
        }
        for text in repeated { #expect(bounds(&known, text) != nil) }
        #expect(bounds(&known, "INSERT INTO t_0 VALUES (1)") == nil)
    }

    @Test func aLongTextIsNotKept() {
        var known = KnownStatementEnds()
        let text = "SELECT '" + String(repeating: "x", count: KnownStatementEnds.longestText) + "'"
        remember(&known, text)
        #expect(bounds(&known, text) == nil)
    }
}
