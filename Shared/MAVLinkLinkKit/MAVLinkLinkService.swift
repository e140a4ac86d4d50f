import DatagramIO
import MAVLinkCompanion
import NetworkEndpoint
import QuadService
import VehicleLinkKit

extension CompanionStateMachine {
    /// mavlink-link's lifecycle service: one bound UDP socket and this state machine on the link thread.
    func service(runtime: ServiceRuntime, listen: UDPEndpoint) -> VehicleLinkService {
        VehicleLinkService(runtime: runtime) { [self] runtime, inbox in
            let socket = try UDPSocket(binding: listen)
            return {
                var driver = CompanionDriver(machine: self, socket: socket, listen: listen,
                                             publisher: VehicleTelemetryPublisher(runtime: runtime),
                                             logger: runtime.logger)
                LinkRunLoop.run(&driver, inbox: inbox)
            }
        }
    }
}
