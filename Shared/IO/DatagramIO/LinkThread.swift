#if canImport(Glibc)
import Glibc
#endif

/// A plain pthread for a loop whose timing must never wait on the Swift concurrency pool: every loop on a thread of
/// its own (QuadService's `OwnThread`: drone-controller, the links), and `Inbox.tick` for a directly delivering
/// connection.
public enum LinkThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    public static func start(_ run: @escaping @Sendable () -> Void) throws(SocketFailure) {
        let box = Unmanaged.passRetained(Body(run)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw SocketFailure(call: "pthread_create", errorNumber: result)
        }
        pthread_detach(thread)
    }
}
