import ArgumentParser
import Logging
import QuadMQTT
import QuadProtocol
import QuadService
import ServiceLifecycle
import Synchronization

/// How a subcommand talks to the broker.
///
/// One-shot commands use a plain client with a client id of their own and no presence: the operator may run
/// `location-broadcaster land` next to a running `follow` with the same sender id, and must neither kick that
/// connection off the broker nor leave an `offline` status that the controller would read as "the pilot is gone".
/// Long-running modes (and anything with --claim) run under ServiceRuntime: presence under the sender id with a
/// Last Will, graceful shutdown on SIGINT/SIGTERM.
enum BusSession {
    static let connectTimeoutS = 5.0

    static func oneShot(_ options: BroadcasterOptions.Resolved,
                        _ body: (MQTTClient) async throws -> Void) async throws {
        var logger = Logger(label: options.senderId) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = options.common.logLevel
        let c = options.common
        let client = try ToolConnection.make(c, name: options.senderId, logger: logger)
        defer { client.shutdown() }
        do {
            try client.start()
            guard await client.waitUntilConnected(timeout: .seconds(connectTimeoutS)) else {
                // A broker that answered is not unreachable: say what it answered.
                if let refusal = client.lastRefusal { throw CLIFailure("not connected: \(refusal)") }
                throw CLIFailure("cannot reach the broker at \(c.brokerList) within \(Int(connectTimeoutS)) s")
            }
            try await body(client)
        } catch let failure as CLIFailure {
            printError(failure.message)
            throw ExitCode.failure
        }
    }

    /// Runs `body` as the process's one service until it returns or SIGINT/SIGTERM arrives (then it is cancelled
    /// and `cleanup` runs, still connected), then says goodbye. A `CLIFailure` from `body` exits 1.
    static func withPresence(_ options: BroadcasterOptions.Resolved,
                             body: @escaping @Sendable (ServiceRuntime) async throws -> Void,
                             cleanup: @escaping @Sendable (ServiceRuntime) async -> Void = { _ in }) async throws {
        let runtime = try ServiceRuntime(service: "location-broadcaster", options: options.common,
                                         presenceName: Topics.broadcasterPresenceName(senderId: options.presenceName))
        let failure = Mutex<CLIFailure?>(nil)
        let service = ClosureService {
            do {
                try await cancelWhenGracefulShutdown { try await body(runtime) }
            } catch let error as CLIFailure {
                failure.withLock { $0 = error }
            } catch is CancellationError {
            } catch {
                failure.withLock { $0 = CLIFailure("\(error)") }
            }
            await cleanup(runtime)
        }
        try await runtime.run([service])
        if let failure = failure.withLock({ $0 }) {
            printError(failure.message)
            throw ExitCode.failure
        }
    }
}

/// A service made of one closure.
struct ClosureService: Service {
    let body: @Sendable () async -> Void
    init(_ body: @escaping @Sendable () async -> Void) { self.body = body }
    func run() async throws { await body() }
}
