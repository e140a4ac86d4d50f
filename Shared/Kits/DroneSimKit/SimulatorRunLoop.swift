#if canImport(Glibc)
import Glibc
#endif
import Clocks
import DatagramIO
import DroneSimulation

/// The run loop both simulator faces share: until SIGINT/SIGTERM, drain the sockets, tick at the physics rate,
/// flush the trace at least every 100 ms, then sleep in poll() until a datagram or the next tick.
enum SimulatorRunLoop {
    static let traceFlushPeriodUs: Int64 = 100_000

    static func run(waitingOn descriptors: [Int32], physicsPeriodUs: Int64, trace: TraceFile?,
                    drain: () -> Void, tick: (MonotonicInstant) -> Void) {
        let signals = StopSignals()
        var nextTickUs = MonotonicClock.nowUs()
        var lastFlushUs = nextTickUs
        while !signals.isPending {
            drain()
            let now = MonotonicClock.now()
            let nowUs = now.us
            if nowUs >= nextTickUs {
                tick(now)
                nextTickUs += physicsPeriodUs
                // After a stall, do not replay every missed tick; the session integrates the gap itself.
                if nextTickUs < nowUs { nextTickUs = nowUs + physicsPeriodUs }
            }
            if nowUs - lastFlushUs >= traceFlushPeriodUs {
                trace?.flush()
                lastFlushUs = nowUs
            }
            let untilTickUs = min(nextTickUs - MonotonicClock.nowUs(), 100_000)
            PollWait.untilReadable(descriptors, timeout: .microseconds(untilTickUs))
        }
        trace?.flush()
    }

    /// Performs a session's actions: datagrams through `socket` (unless the dropper eats them), trace rows, logs.
    static func perform(_ actions: [SimulatorAction], socket: UDPSocket, dropper: inout DatagramDropper,
                        trace: TraceFile?) {
        for action in actions {
            switch action {
            case .sendNavdata(let bytes, let endpoint), .sendDatagram(let bytes, let endpoint):
                if !dropper.shouldDrop() { socket.send(bytes, to: endpoint) }
            case .trace(let row):
                trace?.write(line: row)
            case .log(let line):
                log(line)
            }
        }
    }

    static func log(_ line: String) {
        print(line)
        fflush(nil)  // all streams; avoids touching the global `stdout`
    }
}
