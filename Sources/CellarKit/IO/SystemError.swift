import Glibc

/// A failed system call, with `errno`'s description.
public struct SystemError: Error, CustomStringConvertible {
    /// The call that failed, such as `write`.
    public var operation: String
    /// The `errno` value.
    public var code: Int32

    /// Creates an error for `operation` failing with `code`.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// `operation: description of errno`.
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
