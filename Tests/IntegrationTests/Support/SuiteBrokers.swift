import Foundation

/// One slow-to-start broker (a RabbitMQ node boots in ~10 s, a cluster in ~20 s) shared by the tests of a
/// `.serialized` suite: started by the first test that asks, stopped (by pid, SIGTERM) when the test process exits.
/// Each test uses drone ids of its own, so what one leaves on the bus is not another's business.
final class SuiteBroker: @unchecked Sendable {
    private let lock = NSLock()
    private var broker: (any TestBroker)?
    private var failure: String?
    private let make: @Sendable () throws -> any TestBroker

    init(_ make: @escaping @Sendable () throws -> any TestBroker) { self.make = make }

    /// The broker, started on first use. A failed start is not retried: every later test fails with its reason.
    func get() throws -> any TestBroker {
        try lock.withLock {
            if let broker { return broker }
            if let failure { throw TestEnvironmentError.timeout("broker did not start earlier: \(failure)") }
            do {
                let started = try make()
                broker = started
                SuiteBrokerRegistry.register(started)
                return started
            } catch {
                failure = "\(error)"
                throw error
            }
        }
    }
}

/// Stops every suite broker at exit: beam and nats-server are not children that die with the test process.
enum SuiteBrokerRegistry {
    nonisolated(unsafe) private static var brokers: [any TestBroker] = []
    private static let lock = NSLock()
    private static let installHook: Void = { atexit { SuiteBrokerRegistry.stopAll() } }()

    static func register(_ broker: any TestBroker) {
        _ = installHook
        lock.withLock { brokers.append(broker) }
    }

    static func stopAll() {
        let all = lock.withLock { () -> [any TestBroker] in
            defer { brokers = [] }
            return brokers
        }
        DispatchQueue.concurrentPerform(iterations: all.count) { all[$0].stop(signal: SIGTERM) }
    }
}
