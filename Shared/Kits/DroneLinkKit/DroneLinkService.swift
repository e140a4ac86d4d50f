import ARDrone
import DatagramIO
import NetworkEndpoint
import QuadService
import VehicleLinkKit

/// What drone-link's link thread needs: the drone's address and ports, the link timing and the envelope written
/// into the drone at connect.
struct DroneLinkSettings: Sendable {
    var drone: UDPEndpoint
    var atPort: UInt16
    var navdataPort: UInt16
    var timing: LinkTiming
    var envelope: DroneEnvelope

    /// The lifecycle service: two connected UDP sockets and the ARDrone link state machine on the link thread.
    func service(runtime: ServiceRuntime) -> VehicleLinkService {
        VehicleLinkService(runtime: runtime) { [self] runtime, inbox in
            let atSocket = try UDPSocket(connectingTo: UDPEndpoint(address: drone.address, port: atPort))
            let navdataSocket = try UDPSocket(connectingTo: UDPEndpoint(address: drone.address, port: navdataPort))
            return {
                var driver = DroneLinkDriver(machine: LinkStateMachine(timing: timing, envelope: envelope),
                                             atSocket: atSocket, navdataSocket: navdataSocket,
                                             publisher: VehicleTelemetryPublisher(runtime: runtime),
                                             logger: runtime.logger)
                LinkRunLoop.run(&driver, inbox: inbox)
            }
        }
    }
}
