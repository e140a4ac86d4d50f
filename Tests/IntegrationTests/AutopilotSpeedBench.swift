import Foundation
import Navigation
import Testing

/// Issue 37 item 7, a benchmark, not a test: how long the stack takes to fly a 40 m target on the real PX4 (SIH) and
/// ArduCopter (SITL) against the autopilot's own goto (MAV_CMD_DO_REPOSITION from a second ground station, the
/// board's services stopped) at the same cruise speed, each judged by the autopilot's own position (the observer):
/// the time from the command to within 2 m, and where the vehicle settles (the mean distance over the 6–8 s after it
/// came within 2 m). It asserts nothing about the figures: `make bench-autopilots` (and `make bench`, where the
/// autopilots are) prints them as "bench-autopilots:" rows. Its harness is the real-autopilot suite's
/// (AutopilotFlight), hence its place here. One autopilot after the other (`.serialized`): side by side, each would
/// time the other's load.
@Suite("Autopilot speed bench", .offPool, .serialized,
       .enabled(if: AutopilotSpeedBenchGate.enabled,
                "QUAD_BENCH_AUTOPILOTS=1 (make bench-autopilots) and the autopilots"))
struct AutopilotSpeedBench {
    @Suite("PX4 SIH", .autopilot(.px4))
    struct PX4 {
        @Test("a 40 m target: the stack (its default cruise, and the article's 1 m/s) and PX4's own goto, each speed")
        func target40m() async throws { try await AutopilotSpeedBench.target40m(RealAutopilotTests.flight()) }

        @Test("a 6-item plan at 5 m/s: the board's mission against PX4's own AUTO mission of the same plan")
        func plan() async throws { try await AutopilotSpeedBench.plan(RealAutopilotTests.flight()) }
    }

    @Suite("ArduCopter SITL", .autopilot(.arducopter))
    struct ArduCopter {
        @Test("a 40 m target: the stack and ArduCopter's own goto (DO_REPOSITION in GUIDED) at each speed")
        func target40m() async throws { try await AutopilotSpeedBench.target40m(RealAutopilotTests.flight()) }

        @Test("a 6-item plan at 5 m/s: the board's mission against ArduCopter's own AUTO mission of the same plan")
        func plan() async throws { try await AutopilotSpeedBench.plan(RealAutopilotTests.flight()) }
    }

    static let legM = 40.0
    static let arrivedWithinM = 2.0
    /// Rounds per configuration (QUAD_BENCH_ROUNDS, default 2): the figures are the median and the range.
    static let rounds = ProcessInfo.processInfo.environment["QUAD_BENCH_ROUNDS"].flatMap(Int.init) ?? 2

    /// One flight's figures.
    struct Leg {
        var toWithinS: Double
        var settledM: Double
        var peakMps: Double
        /// The farthest past the point along the leg.
        var overshootM: Double
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2] / 2 + sorted[(sorted.count - 1) / 2] / 2
    }

    /// "median (min–max)" with `digits` decimals.
    static func text(_ values: [Double], _ digits: Int) -> String {
        let format = "%.\(digits)f"
        return String(format: format, median(values)) + " (" + String(format: format, values.min() ?? .nan)
            + "–" + String(format: format, values.max() ?? .nan) + ")"
    }

    static func row(_ what: String, _ legs: [Leg]) {
        print("bench-autopilots: | \(what) | \(text(legs.map(\.toWithinS), 1)) s | "
              + "\(text(legs.map(\.settledM), 2)) m | \(text(legs.map(\.overshootM), 2)) m | "
              + "\(text(legs.map(\.peakMps), 1)) m/s | \(legs.count) |")
    }

    /// From `sentS`: when the autopilot's own position first came within 2 m of `point`, where it settled, its peak
    /// speed. `origin`: where the leg began (the overshoot is measured along it).
    static func measure(_ flight: AutopilotFlight, from origin: GeoPoint, to point: GeoPoint, sentS: Double)
        async throws -> Leg {
        let arrivedS = try await flight.waitArrived(at: point, radiusM: arrivedWithinM, timeoutS: 150)
        try await Task.sleep(for: .seconds(8))
        let seen = flight.observer.now
        let settled = seen.positions(from: arrivedS + 6, to: arrivedS + 8).map { $0.distanceM(to: point) }
        let peak = seen.positions(from: sentS, to: arrivedS).map(\.groundSpeedMps).max() ?? .nan
        let leg = Geodesy.inverse(from: origin, to: point)
        let overshoot = seen.positions(from: sentS).map {
            $0.legOffsetM(from: origin, bearingDeg: leg.initialBearingDeg).alongM - leg.distanceM
        }.max() ?? .nan
        let figures = Leg(toWithinS: arrivedS - sentS,
                          settledM: settled.isEmpty ? .nan : settled.reduce(0, +) / Double(settled.count),
                          peakMps: peak, overshootM: max(overshoot, 0))
        let state = flight.controllerState()
        print("bench-autopilots-round: \(figures); the controller: \(state.map { "\($0.activity)" } ?? "-"), "
              + "\(state?.distanceToTargetM.map { "\($0)" } ?? "-") m to go")
        return figures
    }

    /// The stack: `location-broadcaster target` 40 m out, the controller with `controllerArguments`.
    static func stackLeg(_ flight: AutopilotFlight, _ name: String, controllerArguments: [String]) async throws
        -> Leg {
        var leg: Leg?
        try await flight.scenario(name, controllerArguments: controllerArguments) {
            let origin = try await flight.takeOff()
            try await eventually(timeout: .seconds(20), "the controller hovers") {
                flight.controllerState()?.activity == .hovering
            }
            let out = flight.point(from: origin, bearingDeg: 90, distanceM: legM)
            let sentS = Scenarios.nowS()
            try await flight.target(out)
            leg = try await measure(flight, from: origin, to: out, sentS: sentS)
        }
        return try #require(leg)
    }

    /// The autopilot's own goto: taken off by the stack, which is then stopped (PX4's offboard-loss failsafe starts a
    /// descent; ArduCopter's GUIDED holds), and 2 s later a DO_REPOSITION 40 m out at the cruise altitude and
    /// `speedMps` (nil: the autopilot's default).
    static func autopilotLeg(_ flight: AutopilotFlight, _ name: String, speedMps: Double?) async throws -> Leg {
        var leg: Leg?
        try await flight.scenario(name) {
            let origin = try await flight.takeOff()
            try await eventually(timeout: .seconds(20), "the controller hovers") {
                flight.controllerState()?.activity == .hovering
            }
            let altitudeAMSLM = try #require(flight.observer.now.latest).altitudeAMSLM
            for service in AutopilotFlight.boardServices { _ = flight.stack.process(service)?.stop(signal: SIGKILL) }
            try await Task.sleep(for: .seconds(2))
            let out = flight.point(from: origin, bearingDeg: 90, distanceM: legM)
            let sentS = Scenarios.nowS()
            flight.observer.goto(out, altitudeAMSLM: altitudeAMSLM, speedMps: speedMps)
            leg = try await measure(flight, from: origin, to: out, sentS: sentS)
            // Down by the observer's NAV_LAND (the board is stopped), not left to the scenario's clean-up.
            flight.observer.land()
            try await flight.waitDisarmedOnGround("down after the autopilot's own goto", timeoutS: 90)
        }
        return try #require(leg)
    }

    /// "PX4" or "ArduCopter": whose own goto and mission a row is.
    static func owner(_ flight: AutopilotFlight) -> String { flight.kind == .px4 ? "PX4" : "ArduCopter" }

    static func target40m(_ flight: AutopilotFlight) async throws {
        let own = owner(flight), tag = flight.kind.rawValue
        var runs: [(String, () async throws -> Leg)] = [
            ("the stack, default (5 m/s behind mavlink-link)", {
                try await Self.stackLeg(flight, "stack default", controllerArguments: [])
            }),
            ("\(own)'s own goto at 5 m/s", { try await Self.autopilotLeg(flight, "\(tag) goto 5", speedMps: 5) }),
            ("the stack, --autopilot-cruise 0 (the article's 1 m/s)", {
                try await Self.stackLeg(flight, "stack 1", controllerArguments: ["--autopilot-cruise", "0"])
            }),
            ("\(own)'s own goto at 1 m/s", { try await Self.autopilotLeg(flight, "\(tag) goto 1", speedMps: 1) }),
            ("\(own)'s own goto, its default speed", {
                try await Self.autopilotLeg(flight, "\(tag) goto", speedMps: nil)
            }),
        ]
        if let only = ProcessInfo.processInfo.environment["QUAD_BENCH_ONLY"] {
            runs = runs.filter { $0.0.contains(only) }
            if runs.isEmpty { return }
        }
        var rows: [String: [Leg]] = [:]
        for (what, run) in runs {
            var legs: [Leg] = []
            for _ in 0..<Self.rounds { legs.append(try await run()) }
            rows[what] = legs
        }
        print("bench-autopilots: ")
        print("bench-autopilots: | 40 m leg on \(flight.kind) | to within 2 m | settled from the point | overshoot | "
              + "peak speed | runs |")
        print("bench-autopilots: |---|---|---|---|---|---|")
        for (what, _) in runs { Self.row(what, rows[what] ?? []) }
        // The goal (issue 37 item 7): the stack ≤ 1.25 × the autopilot's own goto at the same speed, settled no
        // farther.
        print("bench-autopilots: ")
        let pairs = [("5 m/s", "the stack, default (5 m/s behind mavlink-link)", "\(own)'s own goto at 5 m/s"),
                     ("1 m/s", "the stack, --autopilot-cruise 0 (the article's 1 m/s)", "\(own)'s own goto at 1 m/s")]
        for (speed, stack, theirsName) in pairs {
            guard let ours = rows[stack].map({ Self.median($0.map(\.toWithinS)) }),
                  let theirs = rows[theirsName].map({ Self.median($0.map(\.toWithinS)) }) else { continue }
            print(String(format: "bench-autopilots: - at %@ the stack takes %.2f× the time of %@'s own goto "
                         + "to within 2 m", speed, ours / theirs, own))
        }
    }
}

/// Whether the speed bench runs: QUAD_BENCH_AUTOPILOTS=1, the autopilots there, and the tools.
enum AutopilotSpeedBenchGate {
    static var enabled: Bool {
        ProcessInfo.processInfo.environment["QUAD_BENCH_AUTOPILOTS"] == "1" && AutopilotSITL.missing == nil
            && TestEnvironment.available("mosquitto", "mosquitto_pub") && PythonTools.available
    }
}
