#if canImport(Glibc)
import Glibc
#endif
import Clocks
import DatagramIO
import DroneSimulation
import MAVLinkSimulation

/// `--protocol mavlink`: one UDP socket and the pure `MAVLinkSimulatorSession` in the shared `SimulatorRunLoop`,
/// with the same trace and drop options as the AR.Drone face.
struct MAVLinkSimulatorLoop {
    var session: MAVLinkSimulatorSession
    let socket: BoundUDPSocket
    let trace: TraceFile?
    var dropper: DatagramDropper
    let physicsPeriodUs: Int64

    mutating func run() {
        SimulatorRunLoop.run(waitingOn: [socket.descriptor], physicsPeriodUs: physicsPeriodUs, trace: trace,
                             drain: { drainSocket() }, tick: { perform(session.tick(nowUs: $0)) })
        let c = session.counters
        log("drone-sim: stopping (MAVLink frames \(c.frames), bad CRC \(c.badCRC), unknown \(c.unknownMessage), "
            + "truncated \(c.truncated))")
    }

    private mutating func drainSocket() {
        while let datagram = socket.receive() {
            if dropper.shouldDrop() { continue }
            perform(session.receive(datagram.bytes, from: datagram.from, nowUs: MonotonicClock.nowUs()))
        }
    }

    private mutating func perform(_ actions: [SimulatorAction]) {
        SimulatorRunLoop.perform(actions, socket: socket, dropper: &dropper, trace: trace)
    }

    private func log(_ line: String) { SimulatorRunLoop.log(line) }
}
