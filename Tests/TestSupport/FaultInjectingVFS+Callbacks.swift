import CSQLite

// MARK: - Opening

/// `xOpen`: opens the real file behind our header, then points SQLite at our methods.
let wrappedOpen:
    @convention(c) (
        UnsafeMutablePointer<sqlite3_vfs>?, UnsafePointer<CChar>?, UnsafeMutablePointer<sqlite3_file>?, Int32,
        UnsafeMutablePointer<Int32>?
    ) -> Int32 = { vfs, name, file, flags, outFlags in
        let stateRaw = UnsafeMutableRawPointer(vfs!).load(
            fromByteOffset: MemoryLayout<sqlite3_vfs>.stride, as: UnsafeMutableRawPointer.self)
        let state = Unmanaged<VFSState>.fromOpaque(stateRaw).takeUnretainedValue()
        let real = FileHeader.real(file)
        let code = state.base.pointee.xOpen(state.base, name, real, flags, outFlags)
        guard code == SQLITE_OK else {
            file!.pointee.pMethods = nil
            return code
        }
        let record = FileRecord()
        state.openFiles[ObjectIdentifier(record)] = record
        let raw = UnsafeMutableRawPointer(file!)
        raw.storeBytes(of: stateRaw, toByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeMutableRawPointer.self)
        raw.storeBytes(
            of: Unmanaged.passRetained(record).toOpaque(), toByteOffset: 2 * MemoryLayout<UnsafeRawPointer>.stride,
            as: UnsafeMutableRawPointer.self)
        file!.pointee.pMethods = UnsafePointer(wrappedMethods)
        return SQLITE_OK
    }

/// Writes a file's unsynced writes through to the real file.
private func applyPending(_ file: UnsafeMutablePointer<sqlite3_file>?) -> Int32 {
    let record = FileHeader.record(of: file)
    let real = FileHeader.real(file)
    defer { record.pending.removeAll() }
    for write in record.pending {
        let code = write.bytes.withUnsafeBytes {
            real.pointee.pMethods.pointee.xWrite(real, $0.baseAddress, Int32($0.count), write.offset)
        }
        if code != SQLITE_OK { return code }
    }
    return SQLITE_OK
}

private func realMethods(_ file: UnsafeMutablePointer<sqlite3_file>?) -> sqlite3_io_methods {
    FileHeader.real(file).pointee.pMethods.pointee
}

// MARK: - I/O methods

/// Our I/O methods (version 2: WAL's shared memory is passed straight through).
nonisolated(unsafe) let wrappedMethods: UnsafeMutablePointer<sqlite3_io_methods> = {
    // nonisolated(unsafe): written once here, then only read by SQLite.
    let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
    methods.initialize(to: sqlite3_io_methods())
    methods.pointee.iVersion = 2
    methods.pointee.xClose = { file in
        let state = FileHeader.state(of: file)
        let record = FileHeader.record(of: file)
        if !state.plan.hasFired { _ = applyPending(file) }
        state.openFiles[ObjectIdentifier(record)] = nil
        Unmanaged.passUnretained(record).release()
        return realMethods(file).xClose(FileHeader.real(file))
    }
    methods.pointee.xRead = { file, buffer, amount, offset in
        let real = FileHeader.real(file)
        var code = realMethods(file).xRead(real, buffer, amount, offset)
        let record = FileHeader.record(of: file)
        guard !record.pending.isEmpty else { return code }
        let target = UnsafeMutableRawBufferPointer(start: buffer, count: Int(amount))
        for write in record.pending {
            let start = max(write.offset, offset)
            let end = min(write.offset + Int64(write.bytes.count), offset + Int64(amount))
            guard start < end else { continue }
            for position in start..<end {
                target[Int(position - offset)] = write.bytes[Int(position - write.offset)]
            }
        }
        if code == IOErrorCode.shortRead {
            var size: Int64 = 0
            _ = file!.pointee.pMethods.pointee.xFileSize(file, &size)
            if offset + Int64(amount) <= size { code = SQLITE_OK }
        }
        return code
    }
    methods.pointee.xWrite = { file, buffer, amount, offset in
        let state = FileHeader.state(of: file)
        if let code = state.faultForWrite() { return code }
        guard state.plan.buffersUnsyncedWrites else {
            return realMethods(file).xWrite(FileHeader.real(file), buffer, amount, offset)
        }
        let bytes = Array(UnsafeRawBufferPointer(start: buffer, count: Int(amount)))
        FileHeader.record(of: file).pending.append((offset, bytes))
        return SQLITE_OK
    }
    methods.pointee.xTruncate = { file, size in
        let state = FileHeader.state(of: file)
        if state.plan.hasFired { return IOErrorCode.truncate }
        let code = applyPending(file)
        return code == SQLITE_OK ? realMethods(file).xTruncate(FileHeader.real(file), size) : code
    }
    methods.pointee.xSync = { file, flags in
        let state = FileHeader.state(of: file)
        if let code = state.faultForSync() { return code }
        let code = applyPending(file)
        return code == SQLITE_OK ? realMethods(file).xSync(FileHeader.real(file), flags) : code
    }
    methods.pointee.xFileSize = { file, size in
        let code = realMethods(file).xFileSize(FileHeader.real(file), size)
        for write in FileHeader.record(of: file).pending {
            size!.pointee = max(size!.pointee, write.offset + Int64(write.bytes.count))
        }
        return code
    }
    methods.pointee.xLock = { file, level in realMethods(file).xLock(FileHeader.real(file), level) }
    methods.pointee.xUnlock = { file, level in realMethods(file).xUnlock(FileHeader.real(file), level) }
    methods.pointee.xCheckReservedLock = { file, result in realMethods(file).xCheckReservedLock(FileHeader.real(file), result) }
    methods.pointee.xFileControl = { file, operation, argument in
        realMethods(file).xFileControl(FileHeader.real(file), operation, argument)
    }
    methods.pointee.xSectorSize = { file in realMethods(file).xSectorSize(FileHeader.real(file)) }
    methods.pointee.xDeviceCharacteristics = { file in realMethods(file).xDeviceCharacteristics(FileHeader.real(file)) }
    methods.pointee.xShmMap = { file, region, size, extend, pointer in
        realMethods(file).xShmMap(FileHeader.real(file), region, size, extend, pointer)
    }
    methods.pointee.xShmLock = { file, offset, count, flags in
        realMethods(file).xShmLock(FileHeader.real(file), offset, count, flags)
    }
    methods.pointee.xShmBarrier = { file in realMethods(file).xShmBarrier(FileHeader.real(file)) }
    methods.pointee.xShmUnmap = { file, delete in realMethods(file).xShmUnmap(FileHeader.real(file), delete) }
    return methods
}()
