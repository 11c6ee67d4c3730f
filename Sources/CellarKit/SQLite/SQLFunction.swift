/// An SQL function implemented in Swift, registered on a connection when it opens
/// (``Database/Options/functions``) or later with ``Database/createFunction(_:argumentCount:isDeterministic:isDirectOnly:body:)``.
///
/// ```swift
/// let half = SQLFunction("half", argumentCount: 1, isDeterministic: true) { arguments in
///     if case .real(let real) = arguments[0] { return .real(real / 2) } else { return .null }
/// }
/// let db = try Database(path: "wine.sqlite", options: Database.Options(functions: [half]))
/// ```
public struct SQLFunction: Sendable {
    /// The SQL name.
    public let name: String
    /// How many arguments it takes, or -1 for any number.
    public let argumentCount: Int32
    /// Whether equal arguments always give equal results.
    public let isDeterministic: Bool
    /// Whether only top-level SQL may call it, not views, triggers or schema expressions of a
    /// (possibly hostile) database file.
    public let isDirectOnly: Bool
    /// Computes the result; an error it throws becomes the SQL error's message.
    public let body: @Sendable ([Value]) throws -> Value

    /// A function from its parts.
    public init(
        _ name: String, argumentCount: Int32, isDeterministic: Bool = false, isDirectOnly: Bool = false,
        body: @escaping @Sendable ([Value]) throws -> Value
    ) {
        self.name = name
        self.argumentCount = argumentCount
        self.isDeterministic = isDeterministic
        self.isDirectOnly = isDirectOnly
        self.body = body
    }
}

extension Database {
    /// Registers `function` on this connection.
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    public func register(_ function: SQLFunction) throws {
        try createFunction(
            function.name, argumentCount: function.argumentCount, isDeterministic: function.isDeterministic,
            isDirectOnly: function.isDirectOnly, body: function.body)
    }
}
