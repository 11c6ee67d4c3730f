import Glibc

/// A new file with a unique name, made by `mkstemp` (mode 0600, close-on-exec).
enum UniqueFile {
    /// Creates `prefix` followed by six unique characters.
    ///
    /// - Returns: the open descriptor and the file's path, or nil with `errno` set.
    static func create(prefix: String) -> (descriptor: Int32, path: String)? {
        var template = Array((prefix + "XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (descriptor, path)
    }
}
