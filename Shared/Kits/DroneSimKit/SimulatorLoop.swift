import Clocks
import DatagramIO
import DroneSimulation
import MAVLinkSimulation

/// One face of the simulator (AR.Drone or MAVLink): a pure session that takes datagrams and ticks and returns
/// actions.
protocol SimulatorFace {
    /// A datagram that arrived on the face's socket number `socket` (in `SimulatorLoop.sockets` order).
    mutating func receive(_ bytes: [UInt8], from: UDPEndpoint, socket: Int, now: MonotonicInstant)
        -> [SimulatorAction]
    mutating func tick(now: MonotonicInstant) -> [SimulatorAction]
    /// The last line before the process exits.
    var stopLine: String { get }
}

/// Moves datagrams between the sockets and a face's pure session, ticks it at the physics rate and performs its
/// actions, with the same trace and drop options for both faces. Single-threaded: poll() waits for a datagram or
/// the next tick.
struct SimulatorLoop<Face: SimulatorFace> {
    var face: Face
    /// Read in this order.
    let sockets: [UDPSocket]
    /// Where the session's datagrams leave from.
    let replySocket: UDPSocket
    let trace: TraceFile?
    var dropper: DatagramDropper
    let physicsPeriodUs: Int64

    mutating func run() {
        SimulatorRunLoop.run(waitingOn: sockets.map(\.descriptor), physicsPeriodUs: physicsPeriodUs, trace: trace,
                             drain: { drainSockets() }, tick: { perform(face.tick(now: $0)) })
        SimulatorRunLoop.log(face.stopLine)
    }

    private mutating func drainSockets() {
        for (index, socket) in sockets.enumerated() {
            while let datagram = socket.receive() {
                if dropper.shouldDrop() { continue }
                perform(face.receive(datagram.bytes, from: datagram.from, socket: index, now: MonotonicClock.now()))
            }
        }
    }

    private mutating func perform(_ actions: [SimulatorAction]) {
        SimulatorRunLoop.perform(actions, socket: replySocket, dropper: &dropper, trace: trace)
    }
}

/// AT commands on socket 0, navdata triggers on socket 1.
extension SimulatorSession: SimulatorFace {
    mutating func receive(_ bytes: [UInt8], from: UDPEndpoint, socket: Int, now: MonotonicInstant)
        -> [SimulatorAction] {
        socket == 0 ? receiveATDatagram(bytes, from: from, now: now)
            : receiveNavdataTrigger(bytes, from: from, now: now)
    }

    var stopLine: String { "drone-sim: stopping" }
}

extension MAVLinkSimulatorSession: SimulatorFace {
    mutating func receive(_ bytes: [UInt8], from: UDPEndpoint, socket: Int, now: MonotonicInstant)
        -> [SimulatorAction] {
        receive(bytes, from: from, now: now)
    }

    var stopLine: String {
        let c = counters
        return "drone-sim: stopping (MAVLink frames \(c.frames), bad CRC \(c.badCRC), unknown \(c.unknownMessage), "
            + "truncated \(c.truncated))"
    }
}
