#if canImport(Glibc)
import Glibc
#endif

/// A plain pthread (the fake drone and the load generator must not wait on the Swift concurrency pool).
enum BenchThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    struct Failure: Error { var code: Int32 }

    static func start(_ run: @escaping @Sendable () -> Void) throws(Failure) {
        let box = Unmanaged.passRetained(Body(run)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw Failure(code: result)
        }
        pthread_detach(thread)
    }
}
