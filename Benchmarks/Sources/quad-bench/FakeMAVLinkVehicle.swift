#if canImport(Glibc)
import BrokerNodes
import Glibc
#endif
import DroneSimulation
import MAVLink
import MAVLinkSimulation
import Navigation
import Synchronization

/// The PX4-like vehicle of drone-sim's MAVLink face (`MAVLinkSimulatorSession`) inside the bench process, on its
/// own pthread and one UDP socket: it sends telemetry to mavlink-link's `--listen` port and answers whoever sends.
/// Every SET_POSITION_TARGET_LOCAL_NED is time-stamped on arrival; the probe waits for the first whose yaw rate has
/// a given sign (mavlink-link turns PCMD yaw into yaw rate with the same sign).
final class FakeMAVLinkVehicle: BenchVehicle {
    private struct Shared {
        var snapshot: VehicleSnapshot
        var probe: LatencyProbe?
        var recording = false
        var setpointTimesNs: [Int64] = []
        var stop = false
    }

    let socket: DroneSocket
    /// Where mavlink-link listens (`--listen 127.0.0.1:<port>`): the vehicle's telemetry goes there.
    let linkPort: UInt16
    let home: GeoPoint
    private let shared: Mutex<Shared>

    init(home: GeoPoint) throws {
        socket = try DroneSocket()
        var port = try freeLoopbackPort(udp: true)
        while port == socket.port { port = try freeLoopbackPort(udp: true) }
        linkPort = port
        self.home = home
        shared = Mutex(Shared(snapshot: VehicleSnapshot(position: home, headingDeg: 0)))
    }

    var snapshot: VehicleSnapshot { shared.withLock { $0.snapshot } }

    func arm(yawSign: Int, startNs: Int64) {
        shared.withLock { $0.probe = LatencyProbe(yawSign: yawSign, startNs: startNs) }
    }

    func probeResultNs() -> Int64? { shared.withLock { $0.probe?.latencyNs } }

    func startRecording() { shared.withLock { $0.setpointTimesNs = []; $0.recording = true } }

    func stopRecording() -> [Int64] {
        shared.withLock { s in
            s.recording = false
            defer { s.setpointTimesNs = [] }
            return s.setpointTimesNs
        }
    }

    func start() throws {
        var configuration = SimulatorConfiguration(home: home, headingDeg: 0, seed: 7)
        // Exact sensors, as for the AR.Drone: only the yaw sign matters.
        configuration.parameters.gpsNoiseM = 0
        configuration.parameters.magnetoNoiseDeg = 0
        configuration.parameters.batteryMinutes = 600
        let session = MAVLinkSimulatorSession(configuration: configuration,
                                              gcs: UDPEndpoint(address: 0x7F00_0001, port: linkPort),
                                              now: .init(us: BenchClock.monotonicNs() / 1000))
        try BenchThread.start { [self] in self.run(session) }
    }

    func stop() { shared.withLock { $0.stop = true } }

    private func run(_ initial: MAVLinkSimulatorSession) {
        var session = initial
        var buffer = [UInt8](repeating: 0, count: 4096)
        var parser = MAVLinkStreamParser()
        let physicsPeriodUs: Int64 = 10_000
        var nextTickUs = BenchClock.monotonicNs() / 1000
        var descriptors = [pollfd(fd: socket.descriptor, events: Int16(POLLIN), revents: 0)]
        while !shared.withLock({ $0.stop }) {
            while let datagram = socket.receive(into: &buffer) {
                let arrivedNs = BenchClock.monotonicNs()
                for case .packet(let packet) in parser.datagram(datagram.bytes) {
                    if case .setPositionTargetLocalNED(let setpoint) = packet.message {
                        observe(yawRate: setpoint.yawRateRadps, arrivedNs: arrivedNs)
                    }
                }
                perform(session.receive(datagram.bytes, from: datagram.from, now: .init(us: arrivedNs / 1000)))
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

    private func observe(yawRate: Float, arrivedNs: Int64) {
        shared.withLock { s in
            if s.recording { s.setpointTimesNs.append(arrivedNs) }
            if var probe = s.probe, probe.latencyNs == nil {
                probe.observe(yaw: yawRate, arrivedNs: arrivedNs)
                s.probe = probe
            }
        }
    }

    private func publish(_ drone: SimulatedDrone) {
        let snapshot = VehicleSnapshot(drone, home: home)
        shared.withLock { $0.snapshot = snapshot }
    }

    private func perform(_ actions: [SimulatorAction]) {
        for case .sendDatagram(let bytes, let endpoint) in actions {
            socket.send(bytes, to: endpoint)
        }
    }
}
