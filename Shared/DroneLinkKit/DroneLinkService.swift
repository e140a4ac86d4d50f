import ARDrone
import DatagramIO
import Logging
import QuadProtocol
import QuadService
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The drone-link as a lifecycle service: the link thread does the timing; this task only feeds it flight
/// commands from MQTT and stops it on shutdown.
struct DroneLinkService: Service {
    struct Settings: Sendable {
        var address: in_addr
        var atPort: UInt16
        var navdataPort: UInt16
        var timing: LinkTiming
        var envelope: DroneEnvelope
    }

    let runtime: ServiceRuntime
    let settings: Settings

    func run() async throws {
        let atSocket = try UDPSocket(connectingTo: settings.address, port: settings.atPort)
        let navdataSocket = try UDPSocket(connectingTo: settings.address, port: settings.navdataPort)
        let inbox = try WakeInbox<FlightCommand>()
        let (finished, finish) = AsyncStream<Void>.makeStream()
        let body: @Sendable () -> Void = { [runtime, settings] in
            var loop = LinkLoop(machine: LinkStateMachine(timing: settings.timing, envelope: settings.envelope), atSocket: atSocket,
                                navdataSocket: navdataSocket, inbox: inbox,
                                publisher: TelemetryPublisher(runtime: runtime), logger: runtime.logger)
            loop.run()
            finish.finish()
        }
        try LinkThread.start(body)

        await runtime.forwardFlightCommands(droppedElsewhere: { inbox.droppedCount }) { inbox.post($0) }
        inbox.requestStop()
        for await _ in finished {}
    }
}
