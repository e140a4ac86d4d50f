import Foundation
import Navigation
import QuadProtocol
import Testing

/// One real flight for a fault-injection case: its own broker, drone-sim (0.2 m GPS noise), drone-link, navigator and
/// drone-controller, plus a recorder of the bus. Knows the simulator's clock, so a fault injected now can be found
/// in the ground-truth trace.
final class FaultFlight: @unchecked Sendable {
    static let gpsNoiseM = 0.2
    static let geofenceRadiusM = 200.0
    /// The controller hovers once its GPS says < 1 m; the truth may differ by the GPS noise (3σ).
    static let arrivalToleranceM = 1.0 + 3 * gpsNoiseM

    let stack: FlightStack
    let controllerArguments: [String]
    let bus: BusRecorder
    private let lock = NSLock()
    private var clockOffsetS = 0.0

    /// - Parameters:
    ///   - broker: another broker (RabbitMQ, NATS, a cluster) the caller owns and stops; nil: a mosquitto of its own.
    ///   - serviceArguments: added to every board service's arguments (e.g. `--mqtt-version 3.1.1`).
    init(simArguments: [String] = [], controllerArguments: [String] = [], recordTelemetry: Bool = false,
         serviceEnvironment: [String: String] = [:], broker: (any TestBroker)? = nil,
         serviceArguments: [String] = [], drone: String = "drone1", link: FlightStack.Link = .ardrone) async throws {
        let simArguments = ["--gps-noise", "\(Self.gpsNoiseM)"] + simArguments
        if let broker {
            stack = try FlightStack(on: broker, drone: drone, simArguments: simArguments,
                controllerArguments: controllerArguments,
                                    serviceArguments: serviceArguments)
        } else {
            stack = try FlightStack(simArguments: simArguments, controllerArguments: controllerArguments, link: link,
                                    serviceEnvironment: serviceEnvironment)
        }
        self.controllerArguments = controllerArguments
        try await stack.waitUntilReady(services: [link.service, "navigator", "drone-controller"])
        let drone = DroneID(rawValue: stack.drone) ?? .default
        var filters = [Topics.controllerState.topic(for: drone), Topics.linkStatus.topic(for: drone),
                       Topics.statusFilter(drone: drone)]
        if recordTelemetry { filters += [Topics.droneState.topic(for: drone), Topics.position.topic(for: drone)] }
        bus = try await BusRecorder(port: stack.broker.port, id: "faults-\(stack.drone)", filters: filters)
    }

    var home: GeoPoint { stack.home }
    var droneID: DroneID { DroneID(rawValue: stack.drone) ?? .default }

    func target(bearingDeg: Double, distanceM: Double) -> GeoPoint {
        stack.target(bearingDeg: bearingDeg, distanceM: distanceM)
    }

    func logs() -> String { stack.logs() }

    func log(_ service: String) -> String { stack.process(service)?.output() ?? "" }

    // MARK: Flying

    func takeOff() async throws {
        try stack.mosquittoPub("command", "takeoff")
        // Hovering, or already flying when the controller kept a target from before a landing.
        try await waitForRow("airborne", timeoutS: TestEnvironment.flightPhaseTimeoutS) {
            $0.altitudeM > 0.5 && $0.isAirborne
        }
        try await calibrateClock()
    }

    func fly(to target: GeoPoint) throws { try stack.publishTarget(target) }

    /// Flying under the controller's progressive commands, at least `travelledM` from home.
    func waitMidFlight(travelledM: Double = 8) async throws {
        try await waitForRow("in flight, \(travelledM) m out",
                             timeoutS: TestEnvironment.flightPhaseTimeoutS) {
            $0.pcmdFlag == 1 && $0.distanceM(to: self.home) > travelledM
        }
    }

    /// Arrived by ground truth: a trace row since the call within `arrivalToleranceM` of `target`. Every row counts,
    /// not only the newest at each poll: a point with no hold is within the tolerance for a second or two, which a
    /// poll starved by a busy machine misses (the whole trace is read about every second for that).
    func waitArrived(at target: GeoPoint, timeoutS: Double = 3 * TestEnvironment.flightPhaseTimeoutS) async throws {
        let sinceS = lastRow()?.timeS ?? 0
        var polls = 0
        let near = { (row: TraceRow) in row.distanceM(to: target) < Self.arrivalToleranceM }
        let what = "within \(Self.arrivalToleranceM) m of the target"
        try await eventually(timeout: .seconds(timeoutS), "\(what)\n\(logs())") {
            polls += 1
            if lastRow().map(near) == true { return true }
            return polls % 50 == 0 && rows(from: sinceS).contains(where: near)
        }
    }

    func land() async throws {
        try stack.mosquittoPub("command", "land")
        try await waitLanded()
    }

    func waitLanded(timeoutS: Double = TestEnvironment.flightPhaseTimeoutS) async throws {
        try await waitForRow("landed", timeoutS: timeoutS) { $0.flightState == "landed" && $0.altitudeM == 0 }
    }

    /// Waits until the newest trace row satisfies `condition`.
    func waitForRow(_ what: String, timeoutS: Double, _ condition: @escaping (TraceRow) -> Bool) async throws {
        try await eventually(timeout: .seconds(timeoutS), "\(what)\n\(logs())") { lastRow().map(condition) == true }
    }

    /// Waits until the trace reaches simulator time `timeS`.
    func waitForTrace(until timeS: Double) async throws {
        try await stack.waitForTrace(until: timeS)
    }

    // MARK: The trace and the simulator's clock

    /// The newest complete trace row, read from the end of the file only.
    func lastRow() -> TraceRow? { stack.lastRow() }

    func rows(from startS: Double, to endS: Double = .infinity) -> [TraceRow] {
        stack.trace().filter { $0.timeS >= startS && $0.timeS <= endS }
    }

    /// Learns the offset between this process's monotonic clock and the simulator's time: rows reach the file
    /// within the simulator's flush period (100 ms), so the smallest (now − newest row time) seen over a few
    /// flushes is the offset, late by at most one trace period (50 ms).
    func calibrateClock(forS durationS: Double = 0.4) async throws {
        var best = Double.infinity
        var lastSeenS = -1.0
        let end = Self.monotonicS() + durationS
        while Self.monotonicS() < end {
            if let row = lastRow(), row.timeS != lastSeenS {
                lastSeenS = row.timeS
                best = min(best, Self.monotonicS() - row.timeS)
            }
            try await Task.sleep(for: .milliseconds(3))
        }
        try #require(best.isFinite, "no trace rows to calibrate against\n\(logs())")
        lock.withLock { clockOffsetS = best }
    }

    /// The simulator's time now (after `calibrateClock`), at most ~50 ms early.
    func simNowS() -> Double { Self.monotonicS() - lock.withLock { clockOffsetS } }

    static func monotonicS() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Every trace row so far lies within the geofence around home (no fly-away).
    func expectInsideGeofence(sourceLocation: SourceLocation = #_sourceLocation) {
        let trace = stack.trace()
        let farthest = trace.map { $0.distanceM(to: home) }.max() ?? 0
        #expect(!trace.isEmpty && farthest < Self.geofenceRadiusM,
                "farthest \(farthest) m from home (\(trace.count) rows)", sourceLocation: sourceLocation)
    }

    // MARK: Processes and the bus

    /// SIGKILL (a crash: no goodbye, the broker publishes the Last Will). Returns the simulator time of the kill.
    func crash(_ service: String) async throws -> Double {
        let process = try #require(stack.process(service), "\(service) is not running")
        try await calibrateClock()
        let killS = simNowS()
        #expect(process.stop(signal: SIGKILL) == 128 + SIGKILL)
        return killS
    }

    /// An `online` status from each service published after `since`.
    func waitOnline(_ services: [String], since: Date, timeoutS: Double = TestEnvironment.readinessTimeoutS)
        async throws {
        try await eventually(timeout: .seconds(timeoutS), "\(services) online again\n\(logs())") {
            services.allSatisfy { service in
                bus.messages(on: Topics.status(service: service, drone: droneID)).contains {
                    $0.at >= since && String(decoding: $0.message.payload, as: UTF8.self).contains(#""state":"online""#)
                }
            }
        }
    }

    func linkStatuses(since: Date = .distantPast) -> [LinkStatus] {
        bus.messages(on: Topics.linkStatus.topic(for: droneID)).filter { $0.at >= since }
            .compactMap { try? LinkStatus(decoding: $0.message.payload) }
    }

    func received(_ path: String, since: Date) -> Int {
        bus.messages(on: "quad/\(stack.drone)/\(path)").filter { $0.at >= since }.count
    }

    func stop() {
        bus.client.shutdown()
        stack.stop()
    }
}

/// At most `QUAD_FAULTS_PARALLEL` (default 3) fault flights at once: each runs five processes on a small machine
/// and asserts reaction times of a few hundred milliseconds. Three (measured on 2 cores): the flights are light
/// (load ~1.7 with two, the services ~2 % CPU each), and `make faults` took 12.2 min instead of 15.6.
actor FlightSlots {
    static let faults = FlightSlots(
        permits: Int(ProcessInfo.processInfo.environment["QUAD_FAULTS_PARALLEL"] ?? "") ?? 3)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) { free = max(1, permits) }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }

    /// Runs `body` while holding a slot.
    static func run(_ body: () async throws -> Void) async throws {
        await faults.acquire()
        do {
            try await body()
        } catch {
            await faults.release()
            throw error
        }
        await faults.release()
    }
}
