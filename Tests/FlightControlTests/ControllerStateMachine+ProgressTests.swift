import Clocks
import FlightControl
#if canImport(Glibc)
import Glibc
#endif
import Navigation
import QuadProtocol
import Testing

/// Recovery manoeuvres and flights must check that they get closer: in a wind stronger than the drone, steering
/// toward home carried it from 10 m to 343 m away while hovering would have drifted 0.4 m/s.
@Suite("ControllerStateMachine: progress watch and filtered arrival")
struct ControllerProgressTests {
    /// Returning home while the wind carries the drone away at `driftMps`: one fix every 100 ms from `distanceM`.
    static func returnAgainstWind(driftMps: Double, seconds: Double, from distanceM: inout Double,
                                  h: inout ControllerHarness) -> [ControllerAction] {
        var actions: [ControllerAction] = []
        for _ in 0..<Int((seconds * 10).rounded()) {
            h.advance(ms: 100)
            distanceM += driftMps / 10
            actions += h.drone(.hovering)
            actions += h.position(ControllerHarness.point(northM: distanceM))
            actions += h.tick()
        }
        return actions
    }

    static func returnAgainstWind(driftMps: Double, seconds: Double, h: inout ControllerHarness) -> [ControllerAction] {
        var distanceM = 250.0
        return returnAgainstWind(driftMps: driftMps, seconds: seconds, from: &distanceM, h: &h)
    }

    /// A return against 5 m/s, 0.1 s steps, until the controller gives it up: what it did and how long it took.
    static func returnUntilItGivesUp(from distanceM: inout Double, h: inout ControllerHarness)
        -> (actions: [ControllerAction], seconds: Double) {
        var seconds = 0.0
        var actions: [ControllerAction] = []
        while h.activity == .returningHome && seconds < 60 {
            actions += Self.returnAgainstWind(driftMps: 5, seconds: 0.1, from: &distanceM, h: &h)
            seconds += 0.1
        }
        return (actions, seconds)
    }

    @Test("a return home that loses ground is abandoned within seconds (not 68 s later at 343 m): lands at once")
    func returnHomeAbandonedLandsAtOnce() {
        var h = ControllerHarness()
        h.returningHome()
        var distanceM = 250.0
        let (actions, seconds) = Self.returnUntilItGivesUp(from: &distanceM, h: &h)
        #expect(seconds < 5)
        #expect(actions.activities == [.landing])
        #expect(h.reason == .windTooStrong)
        #expect(h.nextTick().flights.first?.refMode == .land)
    }

    @Test("--abandoned-return-land-after 5: a return home that loses ground hovers, then lands")
    func returnHomeAbandoned() {
        var configuration = ControllerConfiguration()
        configuration.abandonedReturnLandAfter = .seconds(5)
        var h = ControllerHarness(configuration: configuration)
        h.returningHome()
        #expect(h.activity == .returningHome)
        var distanceM = 250.0
        let (actions, seconds) = Self.returnUntilItGivesUp(from: &distanceM, h: &h)
        // Brake 1 s, 3 m beyond the best distance (0.6 s at 5 m/s), then 3 s of losing ground.
        #expect(seconds < 5)
        #expect(actions.activities == [.hovering])
        #expect(h.reason == .returnHomeNotProgressing)
        #expect(h.nextTick().flights.first?.progressive == false)
        // Still outside the fence, drifting slowly in hover: never another return; lands after 5 s.
        let later = Self.returnAgainstWind(driftMps: 0.4, seconds: 4.8, from: &distanceM, h: &h)
        #expect(later.activities.isEmpty)
        let landing = Self.returnAgainstWind(driftMps: 0.4, seconds: 0.4, from: &distanceM, h: &h)
        #expect(landing.activities == [.landing])
        #expect(h.reason == .returnHomeNotProgressing)
        #expect(h.nextTick().flights.first?.refMode == .land)
    }

    /// One "hover, then land" timer (the hover's own, `Hovering.landing`): the pilot's new target after a return
    /// was given up is a new order, as over home, and ends the hover and its landing; no return is tried again.
    @Test("after a return given up: a new target ends the timed hover; return stays refused")
    func abandonedHoverEndsOnNewTarget() {
        var configuration = ControllerConfiguration()
        configuration.abandonedReturnLandAfter = .seconds(5)
        var h = ControllerHarness(configuration: configuration)
        h.returningHome()
        var distanceM = 250.0
        _ = Self.returnUntilItGivesUp(from: &distanceM, h: &h)
        #expect(h.activity == .hovering && h.reason == .returnHomeNotProgressing)
        h.target(ControllerHarness.point(northM: 150))
        #expect(h.activity == .flyingToTarget)
        #expect(h.command(.returnHome).rejections == ["command: return-refused-not-progressing"])
        // Past the 5 s: no landing from the hover that ended.
        h.run(ms: 6000, position: ControllerHarness.point(northM: 240))
        #expect(h.activity != .landing && h.activity != .landed, "\(h.activity) (\(h.reason))")
    }

    @Test("a return home that gets closer is never abandoned, nor one that drifts less than the margin")
    func returnHomeProgressing() {
        var h = ControllerHarness()
        h.returningHome()
        let closer = Self.returnAgainstWind(driftMps: -3, seconds: 10, h: &h)
        #expect(!closer.activities.contains(.hovering) || h.reason == .backInsideGeofence)
        var g = ControllerHarness()
        g.returningHome()
        // While turning toward home the drone drifts 0.4 m/s for a few seconds: below the 3 m margin.
        let turning = Self.returnAgainstWind(driftMps: 0.4, seconds: 6, h: &g)
        #expect(turning.activities.isEmpty)
        #expect(g.activity == .returningHome)
    }

    @Test("flying to a target that keeps getting farther hovers and drops the target")
    func targetNotProgressing() {
        var h = ControllerHarness()
        h.flyingToTarget(northM: 40)
        var distanceM = 40.0
        var actions: [ControllerAction] = []
        for _ in 0..<60 where h.activity == .flyingToTarget {
            distanceM += 0.3
            actions += h.hold(distanceM: distanceM, ms: 100)
        }
        #expect(actions.activities == [.hovering])
        #expect(h.reason == .targetNotProgressing)
        #expect(h.machine.target == nil)
        #expect(h.nextTick().flights.first?.progressive == false)
    }

    @Test("a target getting closer, or briefly farther while turning, keeps flying")
    func targetProgressing() {
        var h = ControllerHarness()
        h.flyingToTarget(northM: 40)
        // Turning: 2 m farther for 2 s, then closing in.
        #expect(h.hold(distanceM: 42, ms: 2_000).activities.isEmpty)
        var distanceM = 42.0
        for _ in 0..<100 {
            distanceM -= 0.1
            h.hold(distanceM: distanceM, ms: 100)
        }
        #expect(h.activity == .flyingToTarget)
    }

    /// GPS-like jitter without a random generator: ±0.45 m along the golden angle, so single fixes fall inside
    /// the 1 m radius while the mean stays where the drone is.
    static func jitterM(_ index: Int) -> Double { 0.45 * sin(Double(index) * 2.399963) }

    @Test("arrival is judged on the mean of several fixes: 1.34 m away with GPS jitter never arrives")
    func noisyArrival() {
        var h = ControllerHarness()
        h.flyingToTarget(northM: 10)
        h.settle(distanceM: 1.34)
        #expect((0..<300).contains { 1.34 + Self.jitterM($0) < 1 }, "some single fixes fall inside the radius")
        for index in 0..<300 {
            h.hold(distanceM: 1.34 + Self.jitterM(index), ms: 100)
        }
        #expect(h.activity == .flyingToTarget)
        for index in 0..<30 {
            h.hold(distanceM: 0.5 + Self.jitterM(index), ms: 100)
        }
        #expect(h.activity == .arrived)
    }

    @Test("one noisy fix inside the radius is not an arrival")
    func singleFixIsNotArrival() {
        var h = ControllerHarness()
        h.flyingToTarget(northM: 10)
        h.settle(distanceM: 1.4)
        h.advance(ms: 100)
        #expect(h.navigation(distanceM: 0.9).activities.isEmpty)
        #expect(h.activity == .flyingToTarget)
    }

    @Test("ProgressWatch: margin and timeout")
    func progressWatch() {
        var watch = ProgressWatch(marginM: 3, timeout: .seconds(3))
        let r1 = watch.observe(distanceM: 10, at: MonotonicInstant(us: 0)); #expect(!r1)
        let r2 = watch.observe(distanceM: 12.9, at: MonotonicInstant(us: 1_000_000)); #expect(!r2)
        let r3 = watch.observe(distanceM: 13.5, at: MonotonicInstant(us: 2_000_000)); #expect(!r3)
        let r4 = watch.observe(distanceM: 14, at: MonotonicInstant(us: 4_999_999)); #expect(!r4)
        let r5 = watch.observe(distanceM: 14, at: MonotonicInstant(us: 5_000_000)); #expect(r5)
        let r6 = watch.observe(distanceM: 12, at: MonotonicInstant(us: 5_100_000)); #expect(!r6)
        watch.reset()
        #expect(watch.bestDistanceM == .infinity)
        let r7 = watch.observe(distanceM: .nan, at: MonotonicInstant(us: 6_000_000)); #expect(!r7)
    }

    @Test("ArrivalFilter: repeated positions count once, old samples drop out")
    func arrivalFilter() {
        var filter = ArrivalFilter(window: .seconds(1), minimumFixes: 3)
        filter.observe(distanceM: 0.5, latitudeDeg: 1, longitudeDeg: 1, at: MonotonicInstant(us: 0))
        filter.observe(distanceM: 0.5, latitudeDeg: 1, longitudeDeg: 1, at: MonotonicInstant(us: 100_000))
        filter.observe(distanceM: 0.5, latitudeDeg: 1, longitudeDeg: 1, at: MonotonicInstant(us: 200_000))
        #expect(filter.filteredDistanceM == nil)
        filter.observe(distanceM: 0.7, latitudeDeg: 2, longitudeDeg: 1, at: MonotonicInstant(us: 300_000))
        filter.observe(distanceM: 0.9, latitudeDeg: 3, longitudeDeg: 1, at: MonotonicInstant(us: 400_000))
        #expect(abs((filter.filteredDistanceM ?? 0) - 0.7) < 1e-9)
        filter.observe(distanceM: 5, latitudeDeg: 4, longitudeDeg: 1, at: MonotonicInstant(us: 1_350_000))
        #expect(filter.filteredDistanceM == nil)  // only two samples left in the window
    }

    @Test("ArrivalFilter: a new fix at the same coordinates (a still vehicle) counts; a repeat of one replaces it")
    func arrivalFilterStillVehicle() {
        var filter = ArrivalFilter(window: .seconds(1), minimumFixes: 3)
        for step in 0..<3 {
            filter.observe(distanceM: 0.4, latitudeDeg: 1, longitudeDeg: 1, newFix: true,
                           at: MonotonicInstant(us: Int64(step) * 100_000))
        }
        #expect(abs((filter.filteredDistanceM ?? 0) - 0.4) < 1e-9)
        // Held still for 5 s more: still a verdict, from the last second's fixes.
        for step in 3..<53 {
            filter.observe(distanceM: 0.4, latitudeDeg: 1, longitudeDeg: 1, newFix: true,
                           at: MonotonicInstant(us: Int64(step) * 100_000))
        }
        #expect(filter.filteredDistanceM != nil)
        var repeats = ArrivalFilter(window: .seconds(1), minimumFixes: 3)
        for step in 0..<3 {
            repeats.observe(distanceM: 0.4, latitudeDeg: 1, longitudeDeg: 1, newFix: step == 0,
                            at: MonotonicInstant(us: Int64(step) * 100_000))
        }
        #expect(repeats.filteredDistanceM == nil, "one fix and its two repeats are one sample")
    }

    /// The navigator solves on every input: a position fix (its position 0 ms old), a heading update or a target.
    @Test("a still vehicle inside the radius arrives on its fixes' solutions; heading updates alone never arrive")
    func stillVehicleArrives() {
        var h = ControllerHarness()
        h.flyingToTarget(northM: 20)
        h.advance(ms: h.machine.configuration.arrivalWindow.us / 1000 + 1)
        // One fix, then heading updates repeating it for a second: one sample, no arrival.
        h.drone(.hovering)
        h.navigation(distanceM: 0.5, still: true)
        for _ in 0..<10 {
            h.advance(ms: 100)
            h.drone(.hovering)
            h.navigation(distanceM: 0.5, positionAgeMs: 100, still: true)
        }
        #expect(h.activity == .flyingToTarget)
        // Three fixes of a vehicle holding still: arrived.
        for _ in 0..<3 {
            h.advance(ms: 100)
            h.drone(.hovering)
            h.navigation(distanceM: 0.5, still: true)
        }
        #expect(h.activity == .arrived)
    }
}
