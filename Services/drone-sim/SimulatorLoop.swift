#if canImport(Glibc)
import Glibc
#endif
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

    private mutating func perform(_ actions: [SimulatorAction]) {
        for action in actions {
            switch action {
            case .sendNavdata(let bytes, let endpoint):
                // Navdata leaves from port 5554, as on the real drone.
                if !dropper.shouldDrop() { navdataSocket.send(bytes, to: endpoint) }
            case .sendDatagram(let bytes, let endpoint):
                // Not produced by the AR.Drone session; sent from the navdata port if ever.
                if !dropper.shouldDrop() { navdataSocket.send(bytes, to: endpoint) }
            case .trace(let row):
                trace?.write(line: row)
            case .log(let line):
                log(line)
            }
        }
    }

    private func log(_ line: String) {
        print(line)
        fflush(nil)  // all streams; avoids touching the global `stdout`
    }
}
