import ARDrone
import DatagramIO
import NetworkEndpoint
import Logging
import QuadProtocol
import QuadService
import VehicleLinkKit

/// drone-link's side of the shared link loop: AT commands out of one connected UDP socket, navdata into the
/// other, the `LinkStateMachine` deciding, navdata turned into the bus messages.
struct DroneLinkDriver: LinkDriver {
    var machine: LinkStateMachine
    let atSocket: UDPSocket
    let navdataSocket: UDPSocket
    var publisher: VehicleTelemetryPublisher
    let logger: Logger
    var sendErrors = SendErrorLog()

    var descriptors: [Int32] { [navdataSocket.descriptor] }

    func starting() {
        logger.info("AT commands to \(Self.text(atSocket.peer)), navdata from \(Self.text(navdataSocket.peer))")
    }

    mutating func drainDatagrams() {
        while let datagram = navdataSocket.receive() {
            navdata(datagram.bytes, now: MonotonicClock.now())
        }
    }

    /// One navdata datagram from the drone.
    mutating func navdata(_ bytes: [UInt8], now: MonotonicInstant) {
        perform(machine.navdataDatagram(bytes, now: now))
    }

    mutating func perform(_ actions: [LinkAction]) {
        for action in actions {
            switch action {
            case .sendAT(let bytes):
                if let error = atSocket.send(bytes) { sendErrors.record(error, sending: "AT datagram", logger: logger) }
            case .sendNavdataTrigger:
                if let error = navdataSocket.send(NavdataTrigger.bytes) {
                    sendErrors.record(error, sending: "navdata trigger", logger: logger)
                }
            case .publishDroneState(let packet):
                // Numbered and stamped by the publisher.
                if let state = packet.droneState(sequence: 0, stamp: .init(us: 0)) { publisher.droneState(state) }
            case .publishPosition(let packet):
                if let fix = packet.positionFix(sequence: 0, stamp: .init(us: 0)) { publisher.position(fix) }
            case .publishLinkStatus(let health):
                logger.debug("""
                    link: connected \(health.connected), reason \(health.reason), fallback hover \
                    \(health.fallbackHover), \
                    navdata \(health.navdataPerSecond)/s, checksum errors \(health.checksumErrors), malformed \
                    \(health.malformedPackets), stale \(health.stalePackets), MQTT drops \
                    \(publisher.droppedWhileDisconnected)
                    """)
                publisher.linkStatus(health.linkStatus(sequence: 0, stamp: .init(us: 0)))
            case .log(let level, let text):
                logger.log(level: level, "\(text)")
            }
        }
    }

    private static func text(_ peer: UDPEndpoint?) -> String { peer.map { "\($0)" } ?? "?" }
}

extension LinkStateMachine: LinkMachine {}

