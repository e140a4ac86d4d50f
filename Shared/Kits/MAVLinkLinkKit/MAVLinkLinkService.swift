import ArgumentParser
import DatagramIO
import Logging
import MAVLinkCompanion
import NetworkEndpoint
import QuadService
import VehicleLinkKit

/// The transport with its serial port already open: a serial link that is wrong says so at the start, before the
/// service connects to anything.
enum OpenedTransport: Sendable {
    case udp(UDPEndpoint)
    case serial(SerialSettings, SerialPort)
}

extension LinkTransportChoice {
    /// Opens the serial port now; a failure is logged and ends mavlink-link with its exit code
    /// (`SerialOpenFailure.exitCode`). A UDP socket is bound by the service, as before.
    func opened(logger: Logger) throws -> OpenedTransport {
        switch self {
        case .udp(let endpoint):
            return .udp(endpoint)
        case .serial(let settings):
            do {
                return .serial(settings, try settings.open())
            } catch {
                logger.error("cannot use the serial port: \(error)")
                throw error.exitCode
            }
        }
    }
}

extension CompanionStateMachine {
    /// mavlink-link's lifecycle service: this state machine on the link thread with its transport.
    func service(runtime: ServiceRuntime, transport: OpenedTransport) -> VehicleLinkService {
        VehicleLinkService(runtime: runtime) { [self] runtime, inbox in
            let held = BoardListMailboxes.subscribed(runtime: runtime)
            switch transport {
            case .udp(let listen):
                let socket = try UDPSocket(binding: listen)
                return {
                    var driver = CompanionDriver(machine: self, socket: socket, listen: listen,
                                                 publisher: VehicleTelemetryPublisher(runtime: runtime),
                                                 logger: runtime.logger)
                    driver.boardLists = held
                    LinkRunLoop.run(&driver, inbox: inbox)
                }
            case .serial(let settings, let port):
                return {
                    let serial = SerialTransport(settings: settings, port: port, now: MonotonicClock.now())
                    var driver = CompanionDriver(machine: self, transport: serial,
                                                 publisher: VehicleTelemetryPublisher(runtime: runtime),
                                                 logger: runtime.logger)
                    driver.boardLists = held
                    LinkRunLoop.run(&driver, inbox: inbox)
                }
            }
        }
    }
}
