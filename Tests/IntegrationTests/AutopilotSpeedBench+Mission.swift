import Foundation
import Navigation
import Testing

/// Issue 37 item 7's second figure: one 6-item plan (takeoff, 5 m/s, A 20 m north, B 20 m west of A, C 20 m south of
/// B, land at D 10 m east of C) flown from a hover at the cruise altitude by the board (`mission start` in the air:
/// the takeoff item is passed over) and by the autopilot's own AUTO mission (mavlink-link's copy of the same plan; the
/// board stopped, the observer switches the autopilot to its mission mode, as a ground station would): the time from
/// the start to disarmed on the ground and where it landed, judged by the autopilot's own position.
extension AutopilotSpeedBench {
    static let planLegM = 20.0
    static let planSpeedMps = 5.0

    /// One flight of the plan: how long from the start to disarmed, and how far from D it landed.
    struct PlanFlight {
        var toLandedS: Double
        var landedFromDM: Double
    }

    static func planFlight(_ flight: AutopilotFlight, byTheAutopilot: Bool) async throws -> PlanFlight {
        var result: PlanFlight?
        defer { Scenarios.clearMission(flight) }
        try await flight.scenario(byTheAutopilot ? "\(flight.kind.rawValue) mission" : "stack mission") {
            let home = try #require(flight.observer.now.latest, "no position from the autopilot").point
            let a = flight.point(from: home, bearingDeg: 0, distanceM: planLegM)
            let b = flight.point(from: a, bearingDeg: 270, distanceM: planLegM)
            let c = flight.point(from: b, bearingDeg: 180, distanceM: planLegM)
            let d = flight.point(from: c, bearingDeg: 90, distanceM: planLegM / 2)
            let file = try MissionFlightTests.Plan.write([
                Scenarios.planItem(22, nil),
                Scenarios.planItem(178, nil, params: [1, planSpeedMps, -1, 0]),
                Scenarios.planItem(16, a), Scenarios.planItem(16, b), Scenarios.planItem(16, c),
                Scenarios.planItem(21, d),
            ], to: flight.stack.broker.directory.appendingPathComponent("bench.plan"), hoverSpeedMps: planSpeedMps)
            try await Scenarios.uploadMission(flight, file)
            let link = try #require(flight.stack.process("mavlink-link"))
            try await eventually(timeout: .seconds(60), "mavlink-link: the autopilot holds the board's plan") {
                link.output().contains("autopilot mission holds the board's plan")
            }
            try await flight.takeOff()
            try await eventually(timeout: .seconds(20), "the controller hovers") {
                flight.controllerState()?.activity == .hovering
            }
            let startS = Scenarios.nowS()
            if byTheAutopilot {
                for service in AutopilotFlight.boardServices {
                    _ = flight.stack.process(service)?.stop(signal: SIGKILL)
                }
                flight.observer.missionMode()
            } else {
                let start = try await flight.broadcaster(["mission", "start", "--timeout", "30"])
                try #require(start.code == 0, "mission start: \(start.output)\n\(flight.logs())")
            }
            try await flight.waitDisarmedOnGround("the plan flown and landed", timeoutS: 240)
            let landed = try #require(flight.observer.now.latest)
            result = PlanFlight(toLandedS: Scenarios.nowS() - startS, landedFromDM: landed.distanceM(to: d))
            print("bench-autopilots-round: \(byTheAutopilot ? owner(flight) : "stack") mission \(result!)")
        }
        return try #require(result)
    }

    static func plan(_ flight: AutopilotFlight) async throws {
        let own = owner(flight)
        if let only = ProcessInfo.processInfo.environment["QUAD_BENCH_ONLY"], !"mission".contains(only) { return }
        var board: [PlanFlight] = [], theirs: [PlanFlight] = []
        for _ in 0..<Self.rounds {
            board.append(try await Self.planFlight(flight, byTheAutopilot: false))
            theirs.append(try await Self.planFlight(flight, byTheAutopilot: true))
        }
        print("bench-autopilots: ")
        print("bench-autopilots: | 6-item plan at 5 m/s on \(flight.kind) (70 m) | start → disarmed | "
              + "landed from D | runs |")
        print("bench-autopilots: |---|---|---|---|")
        for (what, flights) in [("the board's mission (`mission start` in the air)", board),
                                ("\(own)'s own AUTO mission of the same plan", theirs)] {
            print("bench-autopilots: | \(what) | \(Self.text(flights.map(\.toLandedS), 1)) s | "
                  + "\(Self.text(flights.map(\.landedFromDM), 2)) m | \(flights.count) |")
        }
        print("bench-autopilots: ")
        print(String(format: "bench-autopilots: - the board's mission takes %.2f× the time of %@'s own to disarmed",
                     Self.median(board.map(\.toLandedS)) / Self.median(theirs.map(\.toLandedS)), own))
    }
}
