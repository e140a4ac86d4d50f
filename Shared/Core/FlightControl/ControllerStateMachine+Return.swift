import Clocks
#if canImport(Glibc)
import Glibc
#endif
import Navigation
import QuadProtocol
import TextSupport

/// The failsafes that land or send the drone home on what navdata says: wind stronger than the drone, a low
/// battery (the return itself: `Modes/ReturningHomeMode.swift`).
extension ControllerStateMachine {
    /// The wind estimate in words, for the log lines that blame it.
    var windText: String { wind.summary }

    /// Wind stronger than the air speed a full tilt gives: no manoeuvre can hold or bring back the drone. Land at once.
    mutating func checkWind() -> Transition? {
        guard activity.isAirborne else { return nil }
        guard wind.speedMps > configuration.windCompensation.fullTiltSpeedMps else { return nil }
        clearTarget()
        let fullTilt = DecimalText.fixed(configuration.windCompensation.fullTiltSpeedMps, fractionDigits: 1) ?? "?"
        return Transition(to: .landing, reason: .windTooStrong, log: .log(.warning,
            "\(windText), above the \(fullTilt) m/s a full tilt flies: landing at once"))
    }

    /// Battery below `--land-battery` in the air: home if what is left covers the way there, else land here.
    mutating func lowBatteryFailsafe(_ state: DroneState, now: MonotonicInstant) -> Transition {
        let percent = Double(state.batteryPercent)
        guard configuration.failsafes.lowBattery == .returnIfReachable, returnRefusal() == nil, let home,
              let position = lastPosition, positionFresh(now: now) else {
            return Transition(to: .landing, reason: .batteryLow, log: .log(.warning,
                "battery \(state.batteryPercent)% below \(configuration.landBatteryPercent)%: landing"))
        }
        if law.hasArrived(distanceM: Geodesy.inverse(from: position, to: home).distanceM) {
            return Transition(to: .landing, reason: .batteryLow,
                              log: .log(.warning, "battery \(state.batteryPercent)% low at home: landing"))
        }
        let way = way(from: position, to: home)
        let neededPercent = returnCostPercent(distanceM: way.distanceM, now: now)
        let sparePercent = percent - configuration.failsafes.batteryReservePercent
        let figures = "\(Int(way.distanceM)) m from home\(way.zoneName.map { " around '\($0)'" } ?? "") needs ~"
            + "\(Int(neededPercent.rounded(.up)))%, \(state.batteryPercent)% left "
            + "(reserve \(Int(configuration.failsafes.batteryReservePercent))%)"
        guard neededPercent <= sparePercent else {
            return Transition(to: .landing, reason: .batteryLowCannotReturn,
                              log: .log(.warning, "battery low: \(figures): landing where the drone is"))
        }
        return returnTransition(goal: .home, reason: .batteryLowReturn, now: now,
                                log: .log(.warning, "battery low: \(figures): returning home"))
    }

    /// The way from `start` to `goal` as the controller flies it (a target's leg, a mission's, the way home):
    /// around the keep-out zones the straight leg meets, else straight (also when no path around is known: a
    /// return then flies straight, braked by the airspace watch). What the battery rules price: the straight
    /// distance undercounts a detour.
    func way(from start: GeoPoint, to goal: GeoPoint) -> (distanceM: Double, zoneName: String?) {
        let judged = judgedRoute(from: start, to: goal)
        guard let route = judged.route, !route.corners.isEmpty else {
            return (Geodesy.inverse(from: start, to: goal).distanceM, nil)
        }
        return (route.lengthM, judged.zoneName)
    }
}
