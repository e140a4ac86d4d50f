import Foundation
import Navigation
import QuadProtocol
import Testing

/// One real autopilot (AutopilotSITL) and the product flying it: a private mosquitto, mavlink-link on the autopilot's
/// first link, navigator and drone-controller, commanded with `location-broadcaster` as a user would. One start
/// serves every scenario of a suite (`AutopilotFlight.Scope`); each scenario begins with the vehicle disarmed on the
/// ground and fresh board services (no target or flight kept from the one before) and ends with it brought down.
/// Judged by the autopilot's own position, read by the observer on its second link, never by our telemetry.
final class AutopilotFlight: @unchecked Sendable {
    /// The flight of the suite being run (set by `Scope`).
    @TaskLocal static var current: AutopilotFlight?

    /// The controller's default cruise altitude and altitude tolerance.
    static let cruiseAltitudeM = 3.0
    static let altitudeToleranceM = 0.3
    static let boardServices = ["mavlink-link", "navigator", "drone-controller"]

    let sitl: AutopilotSITL
    let stack: FlightStack
    let bus: BusRecorder
    var observer: AutopilotObserver { sitl.observer }
    var kind: AutopilotSITL.Kind { sitl.kind }
    let startedAtS: Double
    /// socat's pty in front of the autopilot's link port while a scenario flies over a serial port.
    private(set) var serialBridge: SerialBridge?

    /// A suite trait: starts the autopilot and the product once for the whole suite, stops both after it.
    struct Scope: SuiteTrait, TestScoping {
        let kind: AutopilotSITL.Kind

        func provideScope(for test: Test, testCase: Test.Case?,
                          performing function: @Sendable () async throws -> Void) async throws {
            let flight = try await AutopilotFlight(kind)
            do {
                try await AutopilotFlight.$current.withValue(flight) { try await function() }
            } catch {
                flight.stop()
                throw error
            }
            flight.stop()
        }
    }

    private init(_ kind: AutopilotSITL.Kind) async throws {
        startedAtS = AutopilotObserver.nowS()
        sitl = try await AutopilotSITL.start(kind, home: FlightStack.homeBerlin)
        Self.measured(kind, "start", String(format: "ready to arm %.1f s after its start (instance %d)",
                                            sitl.readyAfterS, sitl.instance))
        do {
            stack = try FlightStack(autopilotLinkPort: sitl.linkPort, home: sitl.home)
            try await stack.waitUntilReady(services: Self.boardServices)
            let drone = DroneID(rawValue: stack.drone) ?? .default
            bus = try await BusRecorder(port: stack.broker.port, id: "autopilot-\(kind.rawValue)", filters: [
                Topics.controllerState.topic(for: drone), Topics.linkStatus.topic(for: drone),
                Topics.statusFilter(drone: drone), Topics.airspaceFence.topic(for: drone),
            ])
        } catch {
            sitl.stop()
            throw error
        }
    }

    static func measured(_ kind: AutopilotSITL.Kind, _ scenario: String, _ text: String) {
        print("autopilots: \(kind.rawValue): \(scenario): \(text)")
    }

    func measured(_ scenario: String, _ text: String) { Self.measured(kind, scenario, text) }

    var droneID: DroneID { DroneID(rawValue: stack.drone) ?? .default }

    // MARK: Scenarios

    /// Runs one scenario: fresh board services (with `controllerArguments`) and the vehicle disarmed on the ground
    /// before; the vehicle brought down after, whatever happened.
    /// `serial`: mavlink-link talks to the autopilot through a pseudo-terminal (`--serial`, socat relaying to the
    /// autopilot's UDP link) as it would on TELEM2.
    func scenario(_ name: String, controllerArguments: [String] = [], serial: Bool = false,
                  _ body: () async throws -> Void) async throws {
        let startS = AutopilotObserver.nowS()
        try await prepare(controllerArguments: controllerArguments, serial: serial)
        var failure: (any Error)?
        do {
            try await body()
        } catch {
            failure = error
        }
        let down = await bringDown()
        measured(name, String(format: "took %.0f s", AutopilotObserver.nowS() - startS))
        if let failure { throw failure }
        if let down { Issue.record("after the scenario: \(down)") }
    }

    /// The vehicle disarmed on the ground; every board service (re)started, so no target or flight of a scenario
    /// before is kept. The controller runs with its defaults (its takeoff timeout included: it counts until the
    /// vehicle's own "taking off", which a busy PX4 SIH still showed at 10 s).
    func prepare(controllerArguments: [String], serial: Bool = false) async throws {
        if let problem = await bringDown() { throw TestEnvironmentError.timeout("before the scenario: \(problem)") }
        for service in Self.boardServices.reversed() { stack.process(service)?.stop() }
        if serial, serialBridge == nil {
            serialBridge = try await SerialBridge.toAutopilot(path: sitl.directory.appendingPathComponent("ttyTELEM2")
                                                                .path,
                                                              linkPort: sitl.linkPort, logDirectory: sitl.directory)
        } else if !serial {
            serialBridge?.stop()
            serialBridge = nil
        }
        stack.serialDevice = serialBridge?.path
        try stack.startLink()
        try stack.start("navigator", [])
        try stack.start("drone-controller", controllerArguments)
        try await stack.waitUntilReady(services: Self.boardServices)
        try await eventually(timeout: .seconds(20), "the controller reports landed\n\(logs())") {
            controllerState()?.activity == .landed
        }
    }

    /// Lands the vehicle if it is not disarmed on the ground: the product's `land` first, then the observer's own
    /// NAV_LAND (a second ground station). Returns what went wrong, nil when it is down.
    @discardableResult
    func bringDown() async -> String? {
        if observer.now.isDisarmedOnGround { return nil }
        var notes: [String] = []
        if stack.process("drone-controller")?.isRunning == true, stack.process("mavlink-link")?.isRunning == true {
            // From 6 m PX4's own LAND takes ~18 s to the landed state (13.6 s from 3 m): 20 s ran out in a CI
            // rehearsal with the machine busy.
            let land = try? await broadcaster(["land", "--timeout", "45"], timeoutS: 60)
            if land?.code != 0 {
                notes.append("`land` failed: \(land.map { String($0.output.suffix(300)) } ?? "did not run")")
            } else if (try? await observer.wait("down after `land`", timeoutS: 45) { $0.isDisarmedOnGround }) != nil {
                return nil
            }
        }
        notes.append("the observer's NAV_LAND was needed")
        observer.land()
        do {
            try await observer.wait("down after the observer's NAV_LAND", timeoutS: 90) { $0.isDisarmedOnGround }
        } catch {
            notes.append("\(error)")
        }
        return notes.joined(separator: "; ")
    }

    // MARK: Commands (as a user types them)

    func broadcaster(_ arguments: [String], timeoutS: Double = 60) async throws -> (code: Int32, output: String) {
        try await runToEnd("location-broadcaster", arguments + stack.groundCommon,
                           logDirectory: stack.broker.directory, timeoutS: timeoutS)
    }

    /// `location-broadcaster takeoff`, then the autopilot's own altitude above 2 m. Returns where it took off.
    @discardableResult
    func takeOff() async throws -> GeoPoint {
        let start = try #require(observer.now.latest, "no position from the autopilot").point
        let run = try await broadcaster(["takeoff", "--timeout", "40"])
        try #require(run.code == 0, "takeoff: exit \(run.code): \(run.output)\n\(story(since: 60))\n\(logs())")
        try await observer.wait("airborne above 2 m", timeoutS: 30, context: logs()) {
            ($0.latest?.relativeAltitudeM ?? 0) > 2
        }
        return start
    }

    func target(_ point: GeoPoint, altitudeM: Double? = nil) async throws {
        let run = try await broadcaster(["target", "\(point.latitudeDeg)", "\(point.longitudeDeg)"]
                                        + (altitudeM.map { ["--alt", "\($0)"] } ?? []))
        try #require(run.code == 0, "target: exit \(run.code): \(run.output)\n\(logs())")
    }

    /// A point `distanceM` from `origin`.
    func point(from origin: GeoPoint, bearingDeg: Double, distanceM: Double) -> GeoPoint {
        Geodesy.destination(from: origin, bearingDeg: bearingDeg, distanceM: distanceM)
    }

    /// Waits until the autopilot's own position is within `radiusM` of `target`; returns when (observer time).
    @discardableResult
    func waitArrived(at target: GeoPoint, radiusM: Double = 2, timeoutS: Double = 120) async throws -> Double {
        try await observer.wait("within \(radiusM) m of the target by the autopilot's own position",
                                timeoutS: timeoutS, context: controllerStory()) {
            ($0.latest?.distanceM(to: target) ?? .infinity) < radiusM
        }
        return AutopilotObserver.nowS()
    }

    /// Waits until the autopilot is `distanceM` from `origin` on its way.
    func waitOut(from origin: GeoPoint, distanceM: Double, timeoutS: Double = 60) async throws {
        try await observer.wait("\(distanceM) m out", timeoutS: timeoutS, context: controllerStory()) {
            ($0.latest?.distanceM(to: origin) ?? 0) > distanceM
        }
    }

    func waitDisarmedOnGround(_ what: String, timeoutS: Double = 45) async throws {
        try await observer.wait(what, timeoutS: timeoutS, context: controllerStory()) { $0.isDisarmedOnGround }
    }

    // MARK: The product's side (reported, never the judge of where the vehicle is)

    func controllerStates(since: Date = .distantPast) -> [ControllerState] {
        bus.messages(on: Topics.controllerState.topic(for: droneID)).filter { $0.at >= since }
            .compactMap { try? ControllerState(decoding: $0.message.payload) }
    }

    func controllerState() -> ControllerState? { controllerStates().last }

    /// The controller's activities and reasons, one per change, since `since`.
    func controllerStory(since: Date = Date().addingTimeInterval(-90)) -> String {
        var lines: [String] = []
        var last = ""
        for received in bus.messages(on: Topics.controllerState.topic(for: droneID)) where received.at >= since {
            guard let state = try? ControllerState(decoding: received.message.payload) else { continue }
            let line = "\(state.activity) (\(state.reason))"
            if line != last {
                lines.append(String(format: "%+7.2f s  ", received.at.timeIntervalSinceNow) + line)
                last = line
            }
        }
        return "--- the controller's states\n" + lines.joined(separator: "\n")
    }

    /// The autopilot's changes of the last `seconds`.
    func story(since seconds: Double) -> String {
        "--- the autopilot's own story\n" + observer.now.story(since: AutopilotObserver.nowS() - seconds,
                                                             relativeTo: AutopilotObserver.nowS())
    }

    /// Waits until `service` announced itself online after `since`.
    func waitOnline(_ service: String, since: Date, timeoutS: Double = 30) async throws {
        try await eventually(timeout: .seconds(timeoutS), "\(service) online again\n\(logs())") {
            bus.messages(on: Topics.status(service: service, drone: droneID)).contains {
                $0.at >= since && String(decoding: $0.message.payload, as: UTF8.self).contains(#""state":"online""#)
            }
        }
    }

    func logs() -> String { stack.logs() + "\n" + sitl.log() }

    func stop() {
        bus.client.shutdown()
        stack.stop()
        serialBridge?.stop()
        try? FileManager.default.removeItem(at: stack.broker.directory)
        sitl.stop()
        measured("suite", String(format: "%.0f s from the autopilot's start to its stop",
                                 AutopilotObserver.nowS() - startedAtS))
    }
}

extension Trait where Self == AutopilotFlight.Scope {
    /// One start of this autopilot and the product for every scenario of the suite.
    static func autopilot(_ kind: AutopilotSITL.Kind) -> Self { Self(kind: kind) }
}
