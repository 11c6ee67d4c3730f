import Glibc

/// A plain POSIX thread running a closure, so a test can act from another thread without Foundation.
final class BackgroundThread: @unchecked Sendable {
    // @unchecked: the body is only read by the thread that start() creates, before join().
    private let body: @Sendable () -> Void
    private var handle = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &handle, nil,
            { context in
                let thread = Unmanaged<BackgroundThread>.fromOpaque(context!).takeRetainedValue()
                thread.body()
                return nil
            }, context)
    }

    func join() { pthread_join(handle, nil) }
}
