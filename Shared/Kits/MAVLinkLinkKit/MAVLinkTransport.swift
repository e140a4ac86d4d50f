import Clocks
import DatagramIO
import MAVLinkCompanion
import NetworkEndpoint

/// What mavlink-link's thread talks MAVLink through: a UDP socket (SITL, mavlink-router, an Ethernet flight
/// controller) or a serial port (TELEM2 on a UART). The run loop and the driver do not care which: the transport
/// hands what it read to the state machine its own way (a datagram ends its frames; a byte stream does not) and
/// says in log actions what happened to it.
protocol MAVLinkTransport {
    /// The descriptors to wait on (none while a serial device is gone).
    var descriptors: [Int32] { get }
    /// "udp 0.0.0.0:14540" or "serial /dev/ttyAMA0 at 921600 baud": for log lines.
    var description: String { get }
    /// Reads everything queued into `machine`; also the transport's own timers (a vanished device reopened).
    mutating func drain(into machine: inout CompanionStateMachine, now: MonotonicInstant) -> [CompanionAction]
    /// Sends one frame; errno when it did not go (nothing sent before the peer is known is not an error).
    mutating func send(_ bytes: [UInt8]) -> Int32?
}

/// The bound UDP socket: replies go to wherever the autopilot's datagrams come from.
struct UDPTransport: MAVLinkTransport {
    let socket: UDPSocket
    let listen: UDPEndpoint
    /// Where the autopilot's datagrams come from (only datagrams with its frames count); nothing is sent before.
    var peer: UDPEndpoint?

    init(socket: UDPSocket, listen: UDPEndpoint) {
        self.socket = socket
        self.listen = listen
    }

    var descriptors: [Int32] { [socket.descriptor] }
    var description: String { "udp \(listen)" }

    mutating func drain(into machine: inout CompanionStateMachine, now: MonotonicInstant) -> [CompanionAction] {
        var actions: [CompanionAction] = []
        while let datagram = socket.receive() {
            actions += self.datagram(datagram.bytes, from: datagram.from, into: &machine, now: now)
        }
        return actions
    }

    mutating func datagram(_ bytes: [UInt8], from: UDPEndpoint, into machine: inout CompanionStateMachine,
                           now: MonotonicInstant) -> [CompanionAction] {
        var actions = machine.datagram(bytes, now: now)
        if machine.lastDatagramWasFromAutopilot, peer != from {
            actions.insert(.log(.notice, "autopilot datagrams from \(from)"), at: 0)
            peer = from
        }
        return actions
    }

    mutating func send(_ bytes: [UInt8]) -> Int32? {
        guard let peer else { return nil }
        return socket.send(bytes, to: peer)
    }
}
