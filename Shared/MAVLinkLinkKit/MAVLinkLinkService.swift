import DatagramIO
import Logging
import MAVLinkCompanion
import NetworkEndpoint
import QuadProtocol
import QuadService
import ServiceLifecycle

/// mavlink-link as a lifecycle service: the link thread does the timing and the UDP; this task only feeds it
/// flight commands from MQTT and stops it on shutdown.
struct MAVLinkLinkService: Service {
    let runtime: ServiceRuntime
    let listen: UDPEndpoint
    let machine: CompanionStateMachine

    func run() async throws {
        let socket = try BoundUDPSocket(binding: listen)
        let inbox = try WakeInbox<FlightCommand>()
        let (finished, finish) = AsyncStream<Void>.makeStream()
        try LinkThread.start { [runtime, machine, listen] in
            var loop = CompanionLoop(machine: machine, socket: socket, inbox: inbox,
                                     publisher: CompanionPublisher(runtime: runtime), logger: runtime.logger)
            loop.run(listen: listen)
            finish.finish()
        }

        await runtime.forwardFlightCommands { inbox.post($0) }
        inbox.requestStop()
        for await _ in finished {}
    }
}
