import DatagramIO
import Logging
import MAVLinkCompanion
import NetworkEndpoint
import QuadProtocol
import QuadService
import VehicleLinkKit

/// mavlink-link's side of the shared link loop: one bound UDP socket, the `CompanionStateMachine` deciding,
/// replies to wherever the autopilot's datagrams come from.
struct CompanionDriver: LinkDriver {
    var machine: CompanionStateMachine
    let socket: UDPSocket
    let listen: UDPEndpoint
    var publisher: VehicleTelemetryPublisher
    let logger: Logger
    /// Where the autopilot's datagrams come from (only datagrams with its frames count); nothing is sent before.
    var peer: UDPEndpoint? = nil
    var sendErrors = SendErrorLog()

    var descriptors: [Int32] { [socket.descriptor] }

    func starting() { logger.info("MAVLink on udp \(listen); waiting for the autopilot") }

    mutating func drainDatagrams() {
        while let datagram = socket.receive() {
            self.datagram(datagram.bytes, from: datagram.from, now: MonotonicClock.now())
        }
    }

    /// One datagram from whoever wrote to the socket.
    mutating func datagram(_ bytes: [UInt8], from: UDPEndpoint, now: MonotonicInstant) {
        let actions = machine.datagram(bytes, now: now)
        if machine.lastDatagramWasFromAutopilot, peer != from {
            logger.notice("autopilot datagrams from \(from)")
            peer = from
        }
        perform(actions)
    }

    func stopped() {
        let c = machine.counters
        logger.notice("""
            MAVLink frames \(c.frames), bad CRC \(c.badCRC), unknown ids \(c.unknownMessage), truncated \
            \(c.truncated), bad flags \(c.unsupportedFlags), skipped bytes \(c.skippedBytes), send errors \
            \(sendErrors.count)
            """)
    }

    mutating func perform(_ actions: [CompanionAction]) {
        for action in actions {
            switch action {
            case .send(let bytes):
                guard let peer else { continue }
                if let error = socket.send(bytes, to: peer) {
                    sendErrors.record(error, sending: "to the autopilot", logger: logger)
                }
            case .log(let level, let text):
                logger.log(level: level, "\(text)")
            case .publishDroneState(let state):
                publisher.droneState(state)
            case .publishPosition(let fix):
                publisher.position(fix)
            case .publishLinkStatus(let status):
                publisher.linkStatus(status)
            }
        }
    }
}

extension CompanionStateMachine: LinkMachine {}
