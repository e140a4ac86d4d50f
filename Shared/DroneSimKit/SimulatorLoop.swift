#if canImport(Glibc)
import Glibc
#endif
import Clocks
import DatagramIO
import DroneSimulation

/// Moves datagrams between the sockets and the pure `SimulatorSession`, ticks it at the physics rate and
/// performs its actions. Single-threaded: poll() waits for a datagram or the next tick.
struct SimulatorLoop {
    var session: SimulatorSession
    let atSocket: BoundUDPSocket
    let navdataSocket: BoundUDPSocket
    let trace: TraceFile?
    var dropper: DatagramDropper
    let physicsPeriodUs: Int64

    mutating func run() {
        SimulatorRunLoop.run(waitingOn: [atSocket.descriptor, navdataSocket.descriptor],
                             physicsPeriodUs: physicsPeriodUs, trace: trace,
                             drain: { drainSockets() }, tick: { perform(session.tick(nowUs: $0)) })
        log("drone-sim: stopping")
    }

    private mutating func drainSockets() {
        while let datagram = atSocket.receive() {
            if dropper.shouldDrop() { continue }
            perform(session.receiveATDatagram(datagram.bytes, from: datagram.from, nowUs: MonotonicClock.nowUs()))
        }
        while let datagram = navdataSocket.receive() {
            if dropper.shouldDrop() { continue }
            perform(session.receiveNavdataTrigger(datagram.bytes, from: datagram.from, nowUs: MonotonicClock.nowUs()))
        }
    }

    /// Navdata leaves from port 5554, as on the real drone.
    private mutating func perform(_ actions: [SimulatorAction]) {
        SimulatorRunLoop.perform(actions, socket: navdataSocket, dropper: &dropper, trace: trace)
    }

    private func log(_ line: String) { SimulatorRunLoop.log(line) }
}
