import Foundation
import Navigation
import ProcessSupport
import QuadProtocol
import Testing

/// The product against the real flight stacks of `QUAD_AUTOPILOTS_DIR` (default `../shared/autopilots`): PX4 (SIH
/// quad) and ArduCopter SITL, each started once for all of its scenarios (AutopilotFlight.Scope), flown as a user
/// would (`location-broadcaster takeoff`, `target`, `land`, `return`) through mosquitto, navigator,
/// drone-controller and mavlink-link. Every verdict is the autopilot's own: its position, armed state and landed
/// state read by an independent pymavlink observer on its second MAVLink link, never our telemetry.
///
/// `make autopilots` runs it (QUAD_AUTOPILOTS=1); `make test` skips it. Where the autopilots are absent the suite
/// prints a loud line saying the scenarios were NOT run and why and counts as skipped, never as passed — also under
/// CI=true, where every other missing dependency (mosquitto, the Python venv) fails the run: the autopilots are a
/// directory beside the repo that a clone elsewhere does not have (issue 23 asks for exactly this).
///
/// Each autopilot's scenarios run one after the other on its one start (`.serialized`); the two autopilots fly side
/// by side (different instances and ports), so the suite takes as long as the slower one: ≤ 10 minutes of CI. Not
/// more starts side by side (tried, to save CI time: the serial-port scenarios on starts of their own): with four
/// SITLs, the parity tests' two and a busy machine, PX4 SIH's sensors timed out at the first takeoff ("No valid data
/// from Baro 0", failsafe, landed) and every later scenario of that start failed.
@Suite("Real autopilots", .offPool,
       .enabled(if: RealAutopilotGate.enabled,
                "QUAD_AUTOPILOTS=1 (make autopilots) and the autopilots of QUAD_AUTOPILOTS_DIR"))
struct RealAutopilotTests {
    static func flight() throws -> AutopilotFlight {
        try #require(AutopilotFlight.current, "no autopilot started for this suite")
    }

    @Suite("PX4 SIH", .serialized, .autopilot(.px4))
    struct PX4 {
        @Test("takeoff reaches the cruise altitude and the controller hovers; `land`: disarmed on the ground")
        func takeoffAndLand() async throws { try await Scenarios.takeoffAndLand(flight()) }

        @Test("a 40 m target: arrives within 2 m; a target with --alt 6: 5.5–6.5 m")
        func targets() async throws { try await Scenarios.targets(flight()) }

        @Test("`return`: lands within 1 m of the takeoff point (the link's landing in OFFBOARD)")
        func returnHome() async throws { try await Scenarios.returnHome(flight()) }

        @Test("controller --max-speed 2: a 30 m leg peaks ≤ 2.2 m/s and cruises ≥ 1.4 m/s (autopilot's own speed)")
        func maxSpeed() async throws { try await Scenarios.maxSpeed(flight()) }

        @Test("mavlink-link SIGKILLed mid-leg and restarted: no arming without a new takeoff command")
        func linkKilled() async throws { try await Scenarios.linkKilledAndRestarted(flight()) }

        @Test("navigator SIGKILLed mid-leg and restarted: the flight goes on and arrives")
        func navigatorRestart() async throws { try await Scenarios.restartedMidLeg("navigator", flight()) }

        @Test("drone-controller SIGKILLed mid-leg and restarted: the flight goes on and arrives")
        func controllerRestart() async throws { try await Scenarios.restartedMidLeg("drone-controller", flight()) }

        /// Once (1 of 3 clean-clone runs, one busy core beside it) PX4 over the pty relay landed 6.0 m from home:
        /// 83 s into the return the controller's wind estimate passed the 5 m/s a full tilt flies (`wind-too-strong`)
        /// in SIH, which has no wind: PX4's lag, read as wind and fed forward, wound up. Behind mavlink-link the
        /// controller now estimates no wind (the autopilot holds the ground velocity; ControllerVehicleLinkTests).
        @Test("over a serial port (socat's pty in front of its link): takeoff, a 40 m target, `return`")
        func serialReturn() async throws { try await Scenarios.returnHome(flight(), outM: 40, serial: true) }

        @Test("over a serial port: mavlink-link SIGKILLed mid-leg and restarted: no arming without a new takeoff")
        func serialLinkKilled() async throws { try await Scenarios.linkKilledAndRestarted(flight(), serial: true) }

        @Test("own fence: read back equal; link dead: a goto into the zone never enters, one across it is stopped")
        func autopilotFence() async throws { try await Scenarios.autopilotFence(flight()) }

        // Back in CI (2026-12-03): its red runs were PX4 SIH holding 0.9–1.1 m off B for the loiter (its velocity
        // estimate is biased, and its position loop settles bias/gain off a setpoint); mavlink-link now trims the
        // held point (`HoverHold.trim`), and a stay's departure is judged by the positions' own speed.
        @Test("a .plan flown by the board: each point within 2 m in order, hold and loiter ± 1 s, landed within 1 m")
        func mission() async throws { try await Scenarios.missionFlown(flight()) }

        @Test("mission copy: the autopilot holds the plan (read back); controller killed mid-mission: it finishes it")
        func missionCopy() async throws { try await Scenarios.missionFinishedByTheAutopilot(flight()) }

        @Test("mission copy, board dead: all board services killed mid-mission, a ground station's Mission: finished")
        func missionCopyBoardDead() async throws {
            try await Scenarios.missionFinishedByTheAutopilot(flight(), wholeBoard: true)
        }
    }

    /// ArduCopter's GUIDED takeoff fails with today's mavlink-link (its zero-velocity setpoint stream cancels the
    /// takeoff, issue 23): every scenario here fails at its takeoff until that is fixed.
    @Suite("ArduCopter SITL", .serialized, .autopilot(.arducopter))
    struct ArduCopter {
        @Test("takeoff reaches the cruise altitude and the controller hovers; `land`: disarmed on the ground")
        func takeoffAndLand() async throws { try await Scenarios.takeoffAndLand(flight()) }

        @Test("a 40 m target: arrives within 2 m; a target with --alt 6: 5.5–6.5 m")
        func targets() async throws { try await Scenarios.targets(flight()) }

        @Test("`return`: lands within 1 m of the takeoff point")
        func returnHome() async throws { try await Scenarios.returnHome(flight()) }

        @Test("controller --max-speed 2: a 30 m leg peaks ≤ 2.2 m/s and cruises ≥ 1.4 m/s (autopilot's own speed)")
        func maxSpeed() async throws { try await Scenarios.maxSpeed(flight()) }

        @Test("mavlink-link SIGKILLed mid-leg and restarted: no arming without a new takeoff command")
        func linkKilled() async throws { try await Scenarios.linkKilledAndRestarted(flight()) }

        @Test("navigator SIGKILLed mid-leg and restarted: the flight goes on and arrives")
        func navigatorRestart() async throws { try await Scenarios.restartedMidLeg("navigator", flight()) }

        @Test("drone-controller SIGKILLed mid-leg and restarted: the flight goes on and arrives")
        func controllerRestart() async throws { try await Scenarios.restartedMidLeg("drone-controller", flight()) }

        @Test("over a serial port (socat's pty in front of its link): takeoff, a 40 m target, `return`")
        func serialReturn() async throws { try await Scenarios.returnHome(flight(), outM: 40, serial: true) }

        @Test("over a serial port: mavlink-link SIGKILLed mid-leg and restarted: no arming without a new takeoff")
        func serialLinkKilled() async throws { try await Scenarios.linkKilledAndRestarted(flight(), serial: true) }

        @Test("own fence: read back equal; link dead: a goto into the zone never enters, one across it is stopped")
        func autopilotFence() async throws { try await Scenarios.autopilotFence(flight()) }

        @Test("a .plan flown by the board: each point within 2 m in order, hold and loiter ± 1 s, landed within 1 m")
        func mission() async throws { try await Scenarios.missionFlown(flight()) }

        @Test("mission copy: the autopilot holds the plan (read back); controller killed mid-mission: it finishes it")
        func missionCopy() async throws { try await Scenarios.missionFinishedByTheAutopilot(flight()) }

        @Test("mission copy, board dead: all board services killed mid-mission, a ground station's Mission: finished")
        func missionCopyBoardDead() async throws {
            try await Scenarios.missionFinishedByTheAutopilot(flight(), wholeBoard: true)
        }
    }
}

/// Whether the real-autopilot suite runs: QUAD_AUTOPILOTS=1 and the autopilots there; when they are not, it says so
/// loudly (once).
enum RealAutopilotGate {
    static let enabled: Bool = {
        guard ProcessInfo.processInfo.environment["QUAD_AUTOPILOTS"] == "1" else { return false }
        if let missing = AutopilotSITL.missing {
            let banner = String(repeating: "!", count: 100)
            print("\(banner)\n!!! REAL-AUTOPILOT SCENARIOS NOT RUN (skipped, not passed): \(missing)\n\(banner)")
            return false
        }
        return TestEnvironment.available("mosquitto", "mosquitto_pub", "socat") && PythonTools.available
    }()
}

/// The scenarios, the same for both autopilots.
enum Scenarios {
    static func nowS() -> Double { AutopilotObserver.nowS() }

    static func range(_ values: [Double]) -> String {
        String(format: "%.2f–%.2f", values.min() ?? .nan, values.max() ?? .nan)
    }

    /// The autopilot's altitude every half second, for a failure's message: when a bound was crossed and how.
    static func altitudeTrace(_ positions: [AutopilotObserver.Position], zeroS: Double) -> String {
        var lastS = -Double.infinity
        return positions.compactMap { position -> String? in
            guard position.timeS - lastS >= 0.5 else { return nil }
            lastS = position.timeS
            return String(format: "%+6.1f s %.2f m", position.timeS - zeroS, position.relativeAltitudeM)
        }.joined(separator: ", ")
    }

    /// Where the autopilot was when its landed state first said `state` after `sinceS`: `.landing`, its landing began;
    /// `.onGround`, its touchdown (the disarm follows ~2 s later).
    static func position(when state: AutopilotObserver.LandedState, _ seen: AutopilotObserver.Observations,
                         since sinceS: Double) -> AutopilotObserver.Position? {
        guard let atS = seen.landedStates.first(where: { $0.timeS > sinceS && $0.state == state })?.timeS
        else { return nil }
        return seen.positions(from: sinceS, to: atS).last
    }

    static func takeoffAndLand(_ flight: AutopilotFlight) async throws {
        try await flight.scenario("takeoff+land") {
            let cruise = AutopilotFlight.cruiseAltitudeM, tolerance = AutopilotFlight.altitudeToleranceM
            // The hover is judged on the autopilot's own position: a PX4 that shares the CPU with ArduCopters
            // booting beside it (the parity test's, the scenarios') is not the vehicle (AutopilotSITL
            // .arduCopterBooting). Its takeoff waits for their boots; the other scenarios have coarser bounds.
            if flight.kind == .px4 {
                let waitS = nowS()
                try await eventually(timeout: .seconds(180), "no ArduCopter SITL booting beside PX4's hover") {
                    AutopilotSITL.arduCopterBooting == 0
                }
                if nowS() - waitS > 1 {
                    flight.measured("takeoff", String(format: "waited %.0f s for the ArduCopters' boots",
                                                      nowS() - waitS))
                }
            }
            let commandS = nowS()
            try await flight.takeOff()
            try await eventually(timeout: .seconds(20),
                                 "the controller reports hovering\n\(flight.controllerStory())") {
                flight.controllerState()?.activity == .hovering
            }
            try await flight.observer.wait("at the cruise altitude \(cruise) ± \(tolerance) m", timeoutS: 20,
                                           context: flight.controllerStory()) {
                abs(($0.latest?.relativeAltitudeM ?? 0) - cruise) <= tolerance
            }
            let reachedS = nowS()
            // Hover is the autopilot's own position hold (issue 23 item 4): zero-velocity setpoints drifted 5.5 m
            // in 28 s on PX4 (~2.4 m per 12 s). Held, ArduCopter stays within 0.1 m; PX4 SIH wanders 0.6–1.8 m in
            // the first 12 s (11 runs; the previous session's binaries the same: 0.57 and 1.27 m), so its bound
            // is 2 m.
            let hoverS = 12.0
            try await Task.sleep(for: .seconds(hoverS))
            let window = flight.observer.now.positions(from: nowS() - hoverS)
            let hover = window.map(\.relativeAltitudeM)
            let start = try #require(window.first, "no position from the observer while hovering")
            let driftM = window.map { $0.distanceM(to: start.point) }.max() ?? .nan
            flight.measured("takeoff", String(format: "%.1f s from `takeoff` to %.1f ± %.1f m; then %.0f s of hover "
                                              + "at %@ m, drifting at most %.2f m", reachedS - commandS, cruise,
                                              tolerance, hoverS, range(hover), driftM))
            #expect(!hover.isEmpty && hover.allSatisfy { abs($0 - cruise) <= tolerance },
                    """
                    hover altitude \(range(hover)) m, expected \(cruise) ± \(tolerance); from `takeoff`:
                    \(altitudeTrace(flight.observer.now.positions(from: commandS), zeroS: commandS))
                    \(flight.controllerStory())
                    """)
            #expect(driftM < (flight.kind == .px4 ? 2 : 1), "drifted \(driftM) m in \(hoverS) s of hover")

            let landS = nowS()
            let land = try await flight.broadcaster(["land", "--timeout", "40"], timeoutS: 50)
            #expect(land.code == 0, "land: exit \(land.code): \(land.output)")
            try await flight.waitDisarmedOnGround("disarmed on the ground after `land`")
            flight.measured("land", String(format: "disarmed on the ground %.1f s after `land`", nowS() - landS))
        }
    }

    static func targets(_ flight: AutopilotFlight) async throws {
        try await flight.scenario("targets") {
            let origin = try await flight.takeOff()
            let far = flight.point(from: origin, bearingDeg: 45, distanceM: 40)
            let sentS = nowS()
            try await flight.target(far)
            let arrivedS = try await flight.waitArrived(at: far, radiusM: 2)
            try await Task.sleep(for: .seconds(3))
            let after = flight.observer.now.positions(from: arrivedS).map { $0.distanceM(to: far) }
            flight.measured("40 m target", String(format: "within 2 m %.1f s after `target`; the next 3 s %@ m "
                                                  + "from it", arrivedS - sentS, range(after)))

            let high = flight.point(from: far, bearingDeg: 135, distanceM: 10)
            let highS = nowS()
            try await flight.target(high, altitudeM: 6)
            try await flight.waitArrived(at: high, radiusM: 2)
            try await flight.observer.wait("climbed to 5.5 m", timeoutS: 30, context: flight.controllerStory()) {
                ($0.latest?.relativeAltitudeM ?? 0) >= 5.5
            }
            try await Task.sleep(for: .seconds(4))
            let held = flight.observer.now.positions(from: nowS() - 4).map(\.relativeAltitudeM)
            flight.measured("--alt 6", "held at \(range(held)) m for 4 s")
            // A failure carries the autopilot's altitude every 0.5 s from the target and the controller's states.
            #expect(!held.isEmpty && held.allSatisfy { (5.5...6.5).contains($0) }, """
                --alt 6: \(range(held)) m; the autopilot's altitude from `target --alt 6`: \
                \(altitudeTrace(flight.observer.now.positions(from: highS), zeroS: highS))
                \(flight.controllerStory(since: Date() - (nowS() - highS)))
                """)
        }
    }

    /// `outM` out and `return`; `serial`: mavlink-link on a serial port (a pty relayed to the autopilot).
    static func returnHome(_ flight: AutopilotFlight, outM: Double = 20, serial: Bool = false) async throws {
        try await flight.scenario(serial ? "return over a serial port" : "return", serial: serial) {
            let origin = try await flight.takeOff()
            let out = flight.point(from: origin, bearingDeg: 200, distanceM: outM)
            try await flight.target(out)
            try await flight.waitArrived(at: out, radiusM: 2)
            let returnS = nowS()
            let run = try await flight.broadcaster(["return", "--timeout", "20"], timeoutS: 30)
            #expect(run.code == 0, "return: exit \(run.code): \(run.output)")
            try await flight.waitDisarmedOnGround("landed and disarmed after `return`", timeoutS: 120)
            let landed = try #require(flight.observer.now.latest)
            let missM = landed.distanceM(to: origin)
            // Where the miss comes from: the controller's settle over home, or the autopilot's own descent.
            let seen = flight.observer.now
            let flyingMode = seen.heartbeats.last { $0.timeS <= returnS }?.customMode
            let landS = seen.heartbeats.first { $0.timeS > returnS && $0.customMode != flyingMode }?.timeS
            let atLandM = landS.flatMap { s in seen.positions(from: returnS, to: s).last?.distanceM(to: origin) }
                ?? .nan
            let atTouchdownM = position(when: .onGround, seen, since: returnS)?.distanceM(to: origin) ?? .nan
            flight.measured("return", String(format: "disarmed on the ground %.1f s after `return`, %.2f m from "
                                             + "the takeoff point (%.2f m when its landing began, %.2f m at "
                                             + "touchdown)", nowS() - returnS, missM, atLandM, atTouchdownM))
            // Within 1 m on both (ArduCopter 0.04–0.08 m). ArduCopter lands in its own LAND, whose start is judged
            // too; PX4 is landed by the link in OFFBOARD (no mode change: `atLandM` is NaN). PX4's own LAND ended up
            // to 2.21 m off (begun 0.74 m off, 2026-12-03): that is why the link does not use it.
            if landS != nil {
                #expect(atLandM <= landingBeganM, """
                    the autopilot's landing began \(atLandM) m from the takeoff point
                    \(flight.controllerStory())
                    \(flight.story(since: nowS() - returnS + 5))
                    """)
            }
            #expect(missM < missionLandM, """
                landed \(missM) m from the takeoff point
                \(flight.controllerStory())
                \(flight.story(since: nowS() - returnS + 5))
                """)
        }
    }

    /// The controller's `--max-speed` is a maximum that is flown: over a 30 m leg the autopilot's own ground speed
    /// (GLOBAL_POSITION_INT vx/vy, from the target until arrival) peaks at most `maxSpeedTolerance` above it (the
    /// setpoints never ask for more; what is left is the autopilot's tracking overshoot), and over the middle of the
    /// leg (8 m out to 8 m before the target, by its track) its mean is ≥ `cruiseFraction` of it. Both by that one
    /// measure, the speed the autopilot flies its setpoint by. How fast its positions advanced is printed beside it,
    /// not judged: PX4 SIH's velocity estimate runs ahead of its positions (0.2–0.6 m/s, HoverHold's probe), and once
    /// (CI, 2026-12-04) its positions advanced at 1.39 m/s through a leg flown by 1.8 m/s of its own velocity.
    static let maxSpeedTolerance = 0.10
    static let cruiseFraction = 0.7

    static func maxSpeed(_ flight: AutopilotFlight) async throws {
        let speed = 2.0
        try await flight.scenario("--max-speed", controllerArguments: ["--max-speed", "\(speed)"]) {
            let origin = try await flight.takeOff()
            let out = flight.point(from: origin, bearingDeg: 90, distanceM: 30)
            let sentS = nowS()
            try await flight.target(out)
            try await flight.waitArrived(at: out, radiusM: 2)
            let leg = flight.observer.now.positions(from: sentS)
            let peak = try #require(leg.max { $0.groundSpeedMps < $1.groundSpeedMps })
            let track = leg.filter { $0.distanceM(to: origin) > 8 && $0.distanceM(to: out) > 8 }
            let first = try #require(track.first), last = try #require(track.last)
            let meanMps = track.map(\.groundSpeedMps).reduce(0, +) / Double(track.count)
            let advancedMps = first.distanceM(to: last.point) / (last.timeS - first.timeS)
            flight.measured("--max-speed \(speed)", String(
                format: "peak %.2f m/s (%.1f m out), mean %.2f m/s over %.1f m of the leg (its positions advanced "
                    + "at %.2f m/s)", peak.groundSpeedMps, peak.distanceM(to: origin), meanMps,
                first.distanceM(to: last.point), advancedMps))
            #expect(peak.groundSpeedMps <= speed * (1 + maxSpeedTolerance), "peak ground speed \(peak.groundSpeedMps)")
            // The leg every second: time, out from the origin, off the straight line, speed, heading.
            let bearingDeg = Geodesy.inverse(from: origin, to: out).initialBearingDeg
            let profile = stride(from: 0, to: leg.count, by: 10).map { index -> String in
                let p = leg[index]
                let offset = p.legOffsetM(from: origin, bearingDeg: bearingDeg)
                return String(format: "%+6.1f s  %5.1f m out  %+5.1f m off  %.2f m/s  hdg %.0f", p.timeS - sentS,
                              offset.alongM, offset.acrossM, p.groundSpeedMps, p.headingDeg)
            }.joined(separator: "\n")
            #expect(meanMps >= cruiseFraction * speed, """
                mean ground speed \(meanMps) m/s over the middle of the leg
                \(profile)
                \(flight.controllerStory())
                """)
        }
    }

    /// Issue 23's fail-dangerous bug as a regression test: the link dies mid-leg, the autopilot does what its
    /// configuration says (PX4 by default: offboard lost → Position mode → descends, lands, disarms; ArduCopter
    /// GUIDED: stops and holds), the link comes back — and a vehicle that landed is armed only by a new takeoff
    /// command, while one still in the air flies on to its target (issue 24) and `land` brings it down.
    static func linkKilledAndRestarted(_ flight: AutopilotFlight, serial: Bool = false) async throws {
        try await flight.scenario(serial ? "link killed over a serial port" : "link killed", serial: serial) {
            let origin = try await flight.takeOff()
            let far = flight.point(from: origin, bearingDeg: 300, distanceM: 40)
            try await flight.target(far)
            try await flight.waitOut(from: origin, distanceM: 10)
            let link = try #require(flight.stack.process("mavlink-link"))
            let killS = nowS()
            #expect(link.stop(signal: SIGKILL) == 128 + SIGKILL)

            // What the autopilot does on its own: down and disarmed, or holding in the air (5 s within 1 m and
            // 0.3 m of altitude).
            try await flight.observer.wait("on the ground or holding after the link died", timeoutS: 90,
                                           context: flight.controllerStory()) { seen in
                if seen.isDisarmedOnGround { return true }
                let recent = seen.positions(from: nowS() - 5)
                guard seen.landedState == .inAir, let a = recent.first, let b = recent.last,
                      b.timeS - a.timeS > 4.5 else { return false }
                let altitudes = recent.map(\.relativeAltitudeM)
                return recent.allSatisfy { $0.distanceM(to: b.point) < 1 }
                    && (altitudes.max() ?? 0) - (altitudes.min() ?? 0) < 0.3
            }
            let settled = flight.observer.now
            let onGround = settled.isDisarmedOnGround
            flight.measured("link killed", String(format: "%@ %.1f s after the kill; the autopilot said:\n%@",
                                                  onGround ? "disarmed on the ground" : "holding in the air",
                                                  nowS() - killS, settled.story(since: killS)))

            let restartS = nowS()
            let restarted = Date()
            try flight.stack.startLink()
            try await flight.waitOnline("mavlink-link", since: restarted)
            func report() {
                let seen = flight.observer.now
                let altitudes = range(seen.positions(from: restartS).map(\.relativeAltitudeM))
                let controller = flight.controllerState().map { "\($0.activity) (\($0.reason))" } ?? "silent"
                flight.measured("link restarted", "after the restart: \(altitudes) m, the controller \(controller);\n"
                                + seen.story(since: restartS))
            }
            if onGround {
                try await Task.sleep(for: .seconds(15))
                report()
                let seen = flight.observer.now
                let altitudes = seen.positions(from: restartS).map(\.relativeAltitudeM)
                #expect(seen.armedAt(since: restartS) == nil,
                        "armed without a takeoff command after the link came back\n\(seen.story(since: killS))")
                #expect(altitudes.allSatisfy { $0 < 1 }, "took off without a takeoff command: \(range(altitudes)) m")
                #expect(flight.controllerState()?.activity == .landed,
                        "the stack does not report the vehicle landed\n\(flight.controllerStory())")
            } else {
                let leftM = flight.observer.now.latest?.distanceM(to: far) ?? .nan
                do {
                    let arrivedS = try await flight.waitArrived(at: far, radiusM: 2, timeoutS: 30 + leftM * 1.5)
                    flight.measured("link restarted", String(format: "%.1f m left; arrived %.1f s after the restart",
                                                             leftM, arrivedS - restartS))
                } catch {
                    Issue.record("did not fly on to the target after the link came back (issue 24): \(error)")
                }
                report()
                let land = try await flight.broadcaster(["land", "--timeout", "40"], timeoutS: 50)
                #expect(land.code == 0, "land after the link came back: exit \(land.code): \(land.output)")
                try await flight.waitDisarmedOnGround("down after `land`")
            }
        }
    }

    /// Issue 24: a board service dies mid-leg and is started again 1 s later (as systemd's Restart= does); the
    /// vehicle flies on to the same target and arrives, with no ground action.
    static func restartedMidLeg(_ service: String, _ flight: AutopilotFlight) async throws {
        try await flight.scenario("\(service) restarted") {
            let origin = try await flight.takeOff()
            let far = flight.point(from: origin, bearingDeg: 120, distanceM: 40)
            try await flight.target(far)
            try await flight.waitOut(from: origin, distanceM: 10)
            // Issue 33: a script waiting for the landing meanwhile must not be told the flying vehicle landed.
            let waiter = try ChildProcess(executable: TestEnvironment.executable("location-broadcaster").path,
                arguments: ["status", "--until", "landed", "--timeout", "600"] + flight.stack.groundCommon,
                logDirectory: flight.stack.broker.directory)
            defer { waiter.stop(signal: SIGTERM) }
            let process = try #require(flight.stack.process(service))
            #expect(process.stop(signal: SIGKILL) == 128 + SIGKILL)
            try await Task.sleep(for: .seconds(1))
            let restarted = Date()
            try flight.stack.start(service, [])
            try await flight.waitOnline(service, since: restarted)
            let backS = nowS()
            let leftM = flight.observer.now.latest?.distanceM(to: far) ?? .nan
            // "The hover during the gap ends ≤ 2 s after the service is back": from 2 s to 8 s after it, 3 m nearer
            // the target (~6 m at the 1 m/s cruise; a hovering vehicle still coasts or drifts a metre or two) —
            // else it is not flying on, and waiting for the arrival would only cost CI time.
            try await Task.sleep(for: .seconds(2))
            let twoSecondsM = flight.observer.now.latest?.distanceM(to: far) ?? .nan
            do {
                try await flight.observer.wait("3 m nearer the target from 2 s to 8 s after \(service) was back",
                                               timeoutS: 6) {
                    ($0.latest?.distanceM(to: far) ?? .infinity) < twoSecondsM - 3
                }
            } catch {
                let closest = flight.observer.now.positions(from: backS).map { $0.distanceM(to: far) }.min() ?? .nan
                flight.measured("\(service) restarted", String(
                    format: "%.1f m left when it was back; 8 s later no nearer than %.1f m: not flying on; %@",
                    leftM, closest, flight.controllerStory(since: restarted)))
                Issue.record("the flight did not go on after \(service) restarted (issue 24): \(error)")
                return
            }
            do {
                let arrivedS = try await flight.waitArrived(at: far, radiusM: 2, timeoutS: 30 + leftM * 1.5)
                flight.measured("\(service) restarted", String(format: "%.1f m left when it was back; arrived "
                                                               + "%.1f s later", leftM, arrivedS - backS))
                #expect(waiter.isRunning, "status --until landed returned in the air:\n\(waiter.output())")
                if service == "drone-controller" {
                    // With its default options (the flight memory is on by default): `unknown` until navdata,
                    // never `landed`, and the same target resumed.
                    let states = flight.controllerStates(since: restarted)
                    let ofNewRun = states.filter { $0.runId == states.last?.runId }
                    #expect(ofNewRun.first?.activity == .unknown, "\(ofNewRun.map(\.activity))")
                    #expect(!ofNewRun.contains { $0.activity == .landed }, "\(ofNewRun.map(\.activity))")
                    #expect(ofNewRun.contains { $0.reason == .resumedTarget }, "\(ofNewRun.map(\.reason))")
                }
            } catch {
                let closest = flight.observer.now.positions(from: backS).map { $0.distanceM(to: far) }.min() ?? .nan
                flight.measured("\(service) restarted", String(format: "%.1f m left when it was back; never "
                                                               + "arrived (closest %.1f m); the controller: %@",
                                                               leftM, closest,
                                                               flight.controllerStory(since: restarted)))
                Issue.record("did not fly on to the target after \(service) restarted: \(error)")
            }
        }
    }
}
