/// Reads migration files: the `<version>_<name>.sql` file name, the sections and the checksum.
///
/// ```
/// -- migrate:up
/// CREATE TABLE wineries (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
///
/// -- migrate:down
/// DROP TABLE wineries;
/// ```
/// A file without markers is all up. `-- migrate:up transaction:false` runs the section outside a
/// transaction. goose's (`-- +goose Up`) and sql-migrate's (`-- +migrate Up`) markers are read too; a
/// line that looks like a marker but is none is an error (``SectionMarker``).
package enum MigrationParser {
    /// The version and name in a file name such as `0003_add_vintage.sql`, or nil when it does not fit.
    ///
    /// The version is a positive integer of any width; the name is letters, digits, `_` and `-`.
    package static func parseFileName(_ fileName: String) -> (version: Int64, versionText: String, name: String)? {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        guard let underscore = stem.firstIndex(of: "_") else { return nil }
        let versionText = String(stem[..<underscore])
        let name = String(stem[stem.index(after: underscore)...])
        guard !versionText.isEmpty, versionText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let version = Int64(versionText), version > 0,
            !name.isEmpty, name.unicodeScalars.allSatisfy(isNameCharacter)
        else { return nil }
        return (version, versionText, name)
    }

    /// What is wrong with the version of a file name that would fit but for its version: 0, or a number
    /// past the largest 64-bit version; nil otherwise.
    private static func versionProblem(in fileName: String) -> String? {
        guard fileName.hasSuffix(".sql"), let underscore = fileName.firstIndex(of: "_") else { return nil }
        let versionText = fileName[..<underscore]
        guard !versionText.isEmpty, versionText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            parseFileName("1" + fileName[underscore...]) != nil
        else { return nil }
        if versionText.utf8.allSatisfy({ $0 == UInt8(ascii: "0") }) {
            return "version \(versionText) is not a migration version: versions start at 1"
        }
        return Int64(versionText) == nil ? "version \(versionText) is too large: the largest is \(Int64.max)" : nil
    }

    /// Parses a migration file.
    ///
    /// An up section of comments only is a no-op migration (``Migration/isEmpty``); one that is still
    /// the template of `cellar new` is marked ``Migration/isUnwritten``, which applying refuses.
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - fileName: its name (`0003_add_vintage.sql`).
    ///   - path: the path to show in messages.
    /// - Throws: ``MigrationError`` for a bad name, a bad encoding, misplaced markers or a file with no
    ///   SQL and no comment (0 bytes or whitespace only).
    package static func parse(_ bytes: [UInt8], fileName: String, path: String) throws(MigrationError) -> Migration {
        guard let (version, versionText, name) = parseFileName(fileName) else {
            if let problem = versionProblem(in: fileName) { throw .invalidFile(Diagnostic(path: path, message: problem)) }
            throw .badFileName(path: path)
        }
        let text = try SQLFileDecoder.decode(bytes, path: path)
        guard text.utf8.contains(where: { !isWhitespace($0) }) else {
            throw .invalidFile(Diagnostic(path: path, message: "empty file: no SQL and no comment"))
        }
        let (up, down) = try sections(of: text, path: path)
        // The up section's text is the file's bytes from its start offset on, as they are.
        let upChecksum = checksum(of: up.sql.utf8)
        return Migration(
            version: version, versionText: versionText, name: name, path: path, text: text, up: up, down: down,
            checksum: upChecksum, isUnwritten: upChecksum == MigrationTemplate.upChecksum)
    }

    /// SHA-256 (lowercase hex) of `section` with CRLF as LF and, for a migration's up section,
    /// whitespace at its end dropped (a seed's checksum keeps it: a seed's checksum is of the whole file).
    package static func checksum(of section: some Collection<UInt8>, droppingTrailingWhitespace: Bool = true) -> String {
        // Without a CR there is nothing to normalize but the trailing whitespace: hashed in place.
        let inPlace = section.withContiguousStorageIfAvailable { bytes -> String? in
            guard !bytes.contains(UInt8(ascii: "\r")) else { return nil }
            var end = bytes.count
            while droppingTrailingWhitespace, end > 0, isWhitespace(bytes[end - 1]) { end -= 1 }
            return SHA256.hexDigest(of: UnsafeBufferPointer(rebasing: bytes[..<end]))
        }
        if let digest = inPlace ?? nil { return digest }
        var normalized: [UInt8] = []
        normalized.reserveCapacity(section.count)
        var previous: UInt8 = 0
        for byte in section {
            if byte == UInt8(ascii: "\n"), previous == UInt8(ascii: "\r") { normalized.removeLast() }
            normalized.append(byte)
            previous = byte
        }
        while droppingTrailingWhitespace, let last = normalized.last, isWhitespace(last) {
            normalized.removeLast()
        }
        return SHA256.hexDigest(of: normalized)
    }

    /// Whether `sql` holds a statement: something other than whitespace, comments and semicolons.
    package static func hasStatements(_ sql: some Collection<UInt8>) -> Bool {
        let bytes = Array(sql)
        return bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                index = SQLLexer.statementStart(in: buffer, from: index)
                guard index < buffer.count else { return false }
                if buffer[index] != UInt8(ascii: ";") { return true }
                index += 1
            }
            return false
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
            || scalar == "-"
    }

    // MARK: - Sections

    /// A line that starts the up or the down section.
    private struct Marker {
        let isUp: Bool
        let dialect: SectionMarker.Dialect
        let lineStart: Int
        let bodyStart: Int
        let isTransactional: Bool

        var spelling: String { dialect.spelling(isUp: isUp) }
    }

    private static func sections(of text: String, path: String) throws(MigrationError) -> (Migration.Section, Migration.Section?)
    {
        let bytes = Array(text.utf8)
        let (markers, hasNoTransaction) = try findMarkers(in: bytes, text: text, path: path)
        guard !markers.isEmpty else {
            return (section(bytes, from: 0, to: bytes.count, isTransactional: !hasNoTransaction), nil)
        }
        let ups = markers.filter(\.isUp)
        let downs = markers.filter { !$0.isUp }
        if ups.count > 1 || downs.count > 1 {
            let extra = (ups.count > 1 ? ups[1] : downs[1])
            throw located(
                bytes, text: text, offset: extra.lineStart, path: path, message: "a second \(extra.isUp ? "up" : "down") marker")
        }
        guard let upMarker = ups.first else {
            let down = downs[0]
            throw located(
                bytes, text: text, offset: down.lineStart, path: path,
                message: "'\(down.spelling)' without '\(down.dialect.spelling(isUp: true))'")
        }
        if let downMarker = downs.first, downMarker.lineStart < upMarker.lineStart {
            throw located(
                bytes, text: text, offset: downMarker.lineStart, path: path,
                message: "'\(downMarker.spelling)' before '\(upMarker.spelling)'")
        }
        if hasStatements(bytes[0..<upMarker.lineStart]) {
            let start = bytes.withUnsafeBufferPointer { SQLLexer.statementStart(in: $0, from: 0) }
            throw located(
                bytes, text: text, offset: start, path: path, message: "SQL before '\(upMarker.spelling)' would never run")
        }
        let upEnd = downs.first?.lineStart ?? bytes.count
        let up = section(
            bytes, from: upMarker.bodyStart, to: upEnd, isTransactional: upMarker.isTransactional && !hasNoTransaction)
        let down = downs.first.map {
            section(bytes, from: $0.bodyStart, to: bytes.count, isTransactional: $0.isTransactional && !hasNoTransaction)
        }
        return (up, down)
    }

    private static func section(_ bytes: [UInt8], from start: Int, to end: Int, isTransactional: Bool) -> Migration.Section {
        let slice = bytes[min(start, end)..<end]
        return Migration.Section(
            sql: String(decoding: slice, as: UTF8.self), startOffset: min(start, end), isTransactional: isTransactional,
            hasStatements: hasStatements(slice))
    }

    /// Every section marker, and whether goose's `NO TRANSACTION` is there. A line that looks like a
    /// marker but is none, or a file mixing two tools' markers, is an error at that line.
    private static func findMarkers(
        in bytes: [UInt8], text: String, path: String
    ) throws(MigrationError) -> (markers: [Marker], hasNoTransaction: Bool) {
        var markers: [Marker] = []
        var hasNoTransaction = false
        var dialect: (SectionMarker.Dialect, Int)?
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let bodyStart = min(lineEnd + 1, bytes.count)
            var dashes = lineStart
            while dashes < lineEnd, bytes[dashes] == UInt8(ascii: " ") || bytes[dashes] == UInt8(ascii: "\t") { dashes += 1 }
            if dashes + 1 < lineEnd, bytes[dashes] == UInt8(ascii: "-"), bytes[dashes + 1] == UInt8(ascii: "-") {
                let reading: SectionMarker.Reading =
                    if dashes == lineStart, let marker = SectionMarker.readCommon(bytes[lineStart..<lineEnd]) {
                        .marker(marker)
                    } else {
                        SectionMarker.read(Substring(String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)))
                    }
                switch reading {
                case .none: break
                case .nearMiss(let message):
                    throw located(bytes, text: text, offset: dashes, path: path, message: message)
                case .marker(let marker):
                    if let (first, firstLine) = dialect, first != marker.dialect {
                        let line = SourceLocation(byteOffset: firstLine, in: bytes).line
                        throw located(
                            bytes, text: text, offset: lineStart, path: path,
                            message:
                                "a \(marker.dialect.name) marker in a file that uses \(first.name)'s (line \(line)): use one tool's markers"
                        )
                    }
                    dialect = dialect ?? (marker.dialect, lineStart)
                    switch marker.kind {
                    case .section(let isUp):
                        markers.append(
                            Marker(
                                isUp: isUp, dialect: marker.dialect, lineStart: lineStart, bodyStart: bodyStart,
                                isTransactional: marker.isTransactional))
                    case .noTransaction: hasNoTransaction = true
                    case .statementBoundary: break
                    }
                }
            }
            lineStart = bodyStart
        }
        return (markers, hasNoTransaction)
    }

    private static func located(_ bytes: [UInt8], text: String, offset: Int, path: String, message: String) -> MigrationError {
        .invalidFile(Diagnostic(path: path, text: text, byteOffset: offset, message: message))
    }
}
