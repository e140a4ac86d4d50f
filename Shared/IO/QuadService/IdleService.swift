import ServiceLifecycle

/// A service that does nothing but stay up until shutdown (used while a service has no loop of its own).
public struct IdleService: Service {
    public init() {}
    public func run() async throws {
        try? await gracefulShutdown()
    }
}
