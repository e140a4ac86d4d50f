#if canImport(Glibc)
import Glibc
#endif
import ARDrone
import DroneSimulation
import Navigation
import Synchronization

/// The drone, inside the bench process: the simulator's pure `SimulatorSession` on its own pthread and two UDP
/// ports, so drone-link talks to it exactly as to drone-sim. Every AT datagram is time-stamped on arrival with the
/// bench's monotonic clock; a latency probe waits for the first PCMD whose yaw has a given sign.
final class FakeDrone: BenchVehicle {
    private struct Shared {
        var snapshot: VehicleSnapshot
        var probe: LatencyProbe?
        var recording = false
        var datagramTimesNs: [Int64] = []
        var stop = false
    }

    let atSocket: DroneSocket
    let navdataSocket: DroneSocket
    let home: GeoPoint
    private let shared: Mutex<Shared>

    init(home: GeoPoint) throws {
        atSocket = try DroneSocket()
        navdataSocket = try DroneSocket()
        self.home = home
        shared = Mutex(Shared(snapshot: VehicleSnapshot(position: home, headingDeg: 0)))
    }

    var snapshot: VehicleSnapshot { shared.withLock { $0.snapshot } }

    /// Arms a probe: from `startNs` on, the first PCMD (flag 1) with yaw of sign `yawSign` completes it.
    func arm(yawSign: Int, startNs: Int64) {
        shared.withLock { $0.probe = LatencyProbe(yawSign: yawSign, startNs: startNs) }
    }

    /// The probe's latency once it matched; nil while it waits.
    func probeResultNs() -> Int64? { shared.withLock { $0.probe?.latencyNs } }

    func startRecording() { shared.withLock { $0.datagramTimesNs = []; $0.recording = true } }

    /// Arrival times of every AT datagram since `startRecording`.
    func stopRecording() -> [Int64] {
        shared.withLock { s in
            s.recording = false
            defer { s.datagramTimesNs = [] }
            return s.datagramTimesNs
        }
    }

    func start() throws {
        var configuration = SimulatorConfiguration(home: home, headingDeg: 0, seed: 7)
        // Exact sensors: the probe reads the yaw sign, GPS jitter would only add noise to the flight.
        configuration.parameters.gpsNoiseM = 0
        configuration.parameters.magnetoNoiseDeg = 0
        configuration.parameters.batteryMinutes = 600
        let session = SimulatorSession(configuration: configuration, now: .init(us: BenchClock.monotonicNs() / 1000))
        try BenchThread.start { [self] in self.run(session) }
    }

    func stop() { shared.withLock { $0.stop = true } }

    private func run(_ initial: SimulatorSession) {
        var session = initial
        var buffer = [UInt8](repeating: 0, count: 4096)
        let physicsPeriodUs: Int64 = 10_000
        var nextTickUs = BenchClock.monotonicNs() / 1000
        var descriptors = [
            pollfd(fd: atSocket.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: navdataSocket.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        while !shared.withLock({ $0.stop }) {
            while let datagram = atSocket.receive(into: &buffer) {
                let arrivedNs = BenchClock.monotonicNs()
                observe(datagram.bytes, arrivedNs: arrivedNs)
                perform(session.receiveATDatagram(datagram.bytes, from: datagram.from,
                                                  now: .init(us: arrivedNs / 1000)))
            }
            while let datagram = navdataSocket.receive(into: &buffer) {
                perform(session.receiveNavdataTrigger(datagram.bytes, from: datagram.from,
                                                      now: .init(us: BenchClock.monotonicNs() / 1000)))
            }
            let nowUs = BenchClock.monotonicNs() / 1000
            if nowUs >= nextTickUs {
                perform(session.tick(now: .init(us: nowUs)))
                nextTickUs = max(nextTickUs + physicsPeriodUs, nowUs)
                publish(session.drone)
            }
            let waitMs = Int32(max(0, min(nextTickUs - BenchClock.monotonicNs() / 1000, 100_000) + 999) / 1000)
            _ = poll(&descriptors, nfds_t(descriptors.count), waitMs)
        }
    }

    private func observe(_ datagram: [UInt8], arrivedNs: Int64) {
        var yaw: Float?
        for case .success(let parsed) in ATParser.parse(datagram: datagram) {
            if case .pcmd(let flag, _, _, _, let value) = parsed.command, flag & 1 == 1 { yaw = value }
        }
        shared.withLock { s in
            if s.recording { s.datagramTimesNs.append(arrivedNs) }
            if let yaw, var probe = s.probe, probe.latencyNs == nil {
                probe.observe(yaw: yaw, arrivedNs: arrivedNs)
                s.probe = probe
            }
        }
    }

    private func publish(_ drone: SimulatedDrone) {
        let snapshot = VehicleSnapshot(drone, home: home)
        shared.withLock { $0.snapshot = snapshot }
    }

    private func perform(_ actions: [SimulatorAction]) {
        for case .sendNavdata(let bytes, let endpoint) in actions {
            navdataSocket.send(bytes, to: endpoint)
        }
    }
}

/// One latency measurement: armed at `startNs`, done at the first matching PCMD.
struct LatencyProbe: Sendable {
    let yawSign: Int
    let startNs: Int64
    var latencyNs: Int64?

    mutating func observe(yaw: Float, arrivedNs: Int64) {
        guard arrivedNs >= startNs, (yaw > 0 && yawSign > 0) || (yaw < 0 && yawSign < 0) else { return }
        latencyNs = arrivedNs - startNs
    }
}
