import InMemoryMQTT
import Logging
import QuadProtocol
import QuadService
@testable import LocationBroadcasterKit

/// The options a subcommand would resolve from its command line.
func resolvedOptions(_ arguments: [String] = []) throws -> BroadcasterOptions.Resolved {
    try BroadcasterOptions.parse(["--sender-id", "ground1"] + arguments).resolve()
}

/// A connected ground connection, as `BusSession.oneShot` hands one to a command. `direct`: handlers run inside
/// the publish (and retained messages inside the subscribe), so what a test checks cannot wait on a starved pool.
func groundConnection(_ broker: InMemoryBroker, _ name: String = "ground1", direct: Bool = false) throws
    -> InMemoryConnection {
    let connection = broker.connect(clientId: name, deliversOnPublisherThread: direct)
    try connection.start()
    return connection
}

/// A runtime for the long-running modes (route, claim), over `broker`, already connected.
func groundRuntime(_ broker: InMemoryBroker, senderId: String = "ground1", drone: String = "drone1",
                   direct: Bool = false) throws -> ServiceRuntime {
    let connection = try groundConnection(broker, senderId, direct: direct)
    return ServiceRuntime(service: Topics.broadcasterPresenceName(senderId: senderId),
                          drone: DroneID(rawValue: drone)!, connection: connection, logger: Logger(label: senderId))
}

/// Bounds for waits that end early when all is well; reached only on a failure or a long-starved test process (a
/// busy run starved the whole test process for ~40 s at its start, and a 30 s bound expired with nothing wrong).
let patientS = 120.0

func deadline(afterS seconds: Double) -> Int64 { MonotonicClock.nowUs() + Int64(seconds * 1_000_000) }

/// Runs `body` with the broadcaster's stdout/stderr lines captured.
func capturingConsole<T>(_ body: () async throws -> T) async rethrows -> (T, ConsoleCapture) {
    let capture = ConsoleCapture()
    let result = try await Console.$capture.withValue(capture) { try await body() }
    return (result, capture)
}

