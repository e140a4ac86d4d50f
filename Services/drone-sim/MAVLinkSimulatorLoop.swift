#if canImport(Glibc)
import Glibc
#endif
import DatagramIO
import DroneSimulation
import MAVLinkSimulation

/// `--protocol mavlink`: one UDP socket, the pure `MAVLinkSimulatorSession` ticked at the physics rate. Same
/// shape as `SimulatorLoop` (poll for a datagram or the next tick), same trace and drop options.
struct MAVLinkSimulatorLoop {
    var session: MAVLinkSimulatorSession
    let socket: BoundUDPSocket
    let trace: TraceFile?
    var dropper: DatagramDropper
    let physicsPeriodUs: Int64

    mutating func run() {
        let signals = StopSignals()
        var nextTickUs = MonotonicClock.nowUs()
        var lastFlushUs = nextTickUs
        var descriptors = [pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)]
        while !signals.isPending {
            while let datagram = socket.receive() {
                if dropper.shouldDrop() { continue }
                perform(session.receive(datagram.bytes, from: datagram.from, nowUs: MonotonicClock.nowUs()))
            }
            let nowUs = MonotonicClock.nowUs()
            if nowUs >= nextTickUs {
                perform(session.tick(nowUs: nowUs))
                nextTickUs += physicsPeriodUs
                if nextTickUs < nowUs { nextTickUs = nowUs + physicsPeriodUs }
            }
            if nowUs - lastFlushUs >= SimulatorLoop.traceFlushPeriodUs {
                trace?.flush()
                lastFlushUs = nowUs
            }
            let waitMs = Int32(max(0, min(nextTickUs - MonotonicClock.nowUs(), 100_000)) / 1000)
            _ = poll(&descriptors, nfds_t(descriptors.count), waitMs)
        }
        trace?.flush()
        let c = session.counters
        log("drone-sim: stopping (MAVLink frames \(c.frames), bad CRC \(c.badCRC), unknown \(c.unknownMessage), "
            + "truncated \(c.truncated))")
    }

    private mutating func perform(_ actions: [SimulatorAction]) {
        for action in actions {
            switch action {
            case .sendDatagram(let bytes, let endpoint), .sendNavdata(let bytes, let endpoint):
                if !dropper.shouldDrop() { socket.send(bytes, to: endpoint) }
            case .trace(let row):
                trace?.write(line: row)
            case .log(let line):
                log(line)
            }
        }
    }

    private func log(_ line: String) {
        print(line)
        fflush(nil)
    }
}
