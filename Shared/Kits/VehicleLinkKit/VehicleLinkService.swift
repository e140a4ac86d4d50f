import DatagramIO
import QuadProtocol
import QuadService
import ServiceLifecycle

/// A vehicle link (drone-link, mavlink-link) as a lifecycle service: the link thread does the timing and the UDP;
/// this task only feeds it flight commands from MQTT and stops it on shutdown.
package struct VehicleLinkService: Service {
    /// Opens the link's sockets (a failure ends the service) and returns what the link thread runs until the
    /// inbox asks it to stop.
    package typealias Open = @Sendable (ServiceRuntime, Inbox<FlightCommand>) throws -> @Sendable () -> Void

    package let runtime: ServiceRuntime
    package let open: Open

    package init(runtime: ServiceRuntime, open: @escaping Open) {
        self.runtime = runtime
        self.open = open
    }

    package func run() async throws {
        let inbox = try Inbox<FlightCommand>.polled()
        let body = try open(runtime, inbox)
        let thread = try ServiceThread(body)
        await runtime.forwardFlightCommands(droppedElsewhere: { inbox.droppedCount }) { inbox.send($0) }
        inbox.finish()
        _ = await thread.value
    }
}
