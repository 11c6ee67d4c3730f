extension BlobHandle {
    /// Writes the whole blob, from its start, to `sink`, `chunkSize` bytes at a time: memory stays at
    /// one chunk whatever the blob's size.
    ///
    /// Between chunks it honours the connection's ``Database/cancellation`` flag.
    ///
    /// ```swift
    /// let label = try db.openBlob(table: "wine", column: "label", rowID: 1)
    /// try label.copy(to: FileDescriptorSink(descriptor: descriptor))
    /// ```
    /// - Parameter progress: called after each chunk with the bytes copied so far.
    /// - Returns: the number of bytes written (the blob's size).
    /// - Throws: ``BlobError`` (`.rowChanged` when the row changes meanwhile, `.closed`), what the sink
    ///   throws, or ``SQLiteError`` (`SQLITE_INTERRUPT`) when cancelled.
    @discardableResult
    public func copy(
        to sink: any ByteSink, chunkSize: Int = BlobHandle.defaultChunkSize, progress: ((Int) -> Void)? = nil
    ) throws -> Int {
        let total = try size
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, min(chunkSize, total)), alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        while offset < total {
            try database.checkCancellation()
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, total - offset)])
            try read(into: piece, at: offset)
            try sink.write(UnsafeRawBufferPointer(piece))
            offset += piece.count
            progress?(offset)
        }
        try sink.flush()
        return total
    }

    /// Fills the whole blob, from its start, with the bytes of `source`, `chunkSize` bytes at a time:
    /// memory stays at one chunk whatever the blob's size.
    ///
    /// The source must hold exactly as many bytes as the blob: a blob's size is fixed once it exists,
    /// so set the cell to a zeroblob of the right size first. Between chunks it honours the
    /// connection's ``Database/cancellation`` flag. Run it in a transaction to make it all or nothing.
    ///
    /// - Parameter progress: called after each chunk with the bytes copied so far.
    /// - Throws: ``BlobError`` (`.sourceTooShort`, `.sourceTooLong`, `.openedForReading`,
    ///   `.rowChanged`, `.closed`), what the source throws, or ``SQLiteError`` (`SQLITE_INTERRUPT`)
    ///   when cancelled.
    public func copy(
        from source: any ByteSource, chunkSize: Int = BlobHandle.defaultChunkSize, progress: ((Int) -> Void)? = nil
    ) throws {
        let total = try size
        guard access == .readWrite else { throw error(.openedForReading) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, min(chunkSize, total)), alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        while offset < total {
            try database.checkCancellation()
            let wanted = min(buffer.count, total - offset)
            let filled = try Self.fill(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]), from: source)
            guard filled == wanted else { throw error(.sourceTooShort(expected: total, received: offset + filled)) }
            try write(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), at: offset)
            offset += filled
            progress?(offset)
        }
        try database.checkCancellation()
        var extra: UInt8 = 0
        guard try withUnsafeMutableBytes(of: &extra, { try source.read(into: $0) }) == 0 else {
            throw error(.sourceTooLong(expected: total))
        }
    }

    /// Reads until `buffer` is full or the source ends; returns the bytes read.
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer, from source: any ByteSource) throws -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
