internal import CSQLite

/// A Swift closure registered as an SQL function.
private final class FunctionBox {
    let body: ([Value]) throws -> Value
    init(_ body: @escaping ([Value]) throws -> Value) { self.body = body }
}

extension Database {
    /// Registers an SQL function implemented in Swift.
    ///
    /// - Parameters:
    ///   - name: the SQL name.
    ///   - argumentCount: how many arguments it takes, or -1 for any number.
    ///   - isDeterministic: whether equal arguments always give equal results.
    ///   - isDirectOnly: whether only top-level SQL may call it, not views, triggers or schema
    ///     expressions of a (possibly hostile) database file (<https://sqlite.org/c3ref/c_deterministic.html>).
    ///   - body: computes the result; an error it throws becomes the SQL error's message.
    ///
    /// ```swift
    /// try db.createFunction("double_it", argumentCount: 1) { args in
    ///     if case .integer(let n) = args[0] { return .integer(n * 2) } else { return .null }
    /// }
    /// ```
    public func createFunction(
        _ name: String,
        argumentCount: Int32,
        isDeterministic: Bool = false,
        isDirectOnly: Bool = false,
        body: @escaping ([Value]) throws -> Value
    ) throws {
        let box = FunctionBox(body)
        var flags = SQLITE_UTF8
        if isDeterministic { flags |= SQLITE_DETERMINISTIC }
        if isDirectOnly { flags |= SQLITE_DIRECTONLY }
        let code = sqlite3_create_function_v2(
            try openHandle(), name, argumentCount, flags, Unmanaged.passUnretained(box).toOpaque(),
            { context, count, arguments in
                let box = Unmanaged<FunctionBox>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
                let values = (0..<Int(count)).map { Value(sqliteValue: arguments![$0]) }
                do {
                    try box.body(values).setResult(of: context)
                } catch {
                    sqlite3_result_error(context, "\(error)", -1)
                }
            },
            nil, nil, nil)
        try check(code)
        functionBoxes.append(box)
    }
}

extension Value {
    init(sqliteValue value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            self = .text(String(decoding: UnsafeBufferPointer(start: sqlite3_value_text(value), count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            let pointer = sqlite3_value_blob(value)?.assumingMemoryBound(to: UInt8.self)
            self = .blob(pointer.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
        default: self = .null
        }
    }

    func setResult(of context: OpaquePointer?) {
        switch self {
        case .null: sqlite3_result_null(context)
        case .integer(let integer): sqlite3_result_int64(context, integer)
        case .real(let real): sqlite3_result_double(context, real)
        case .text(let text):
            sqlite3_result_text64(context, text, UInt64(text.utf8.count), cellar_transient(), UInt8(SQLITE_UTF8))
        case .blob(let bytes) where bytes.isEmpty:
            sqlite3_result_zeroblob(context, 0)
        case .blob(let bytes):
            bytes.withUnsafeBytes { buffer in
                sqlite3_result_blob64(context, buffer.baseAddress, UInt64(buffer.count), cellar_transient())
            }
        }
    }
}
