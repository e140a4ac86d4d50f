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
        let distanceM = Geodesy.inverse(from: position, to: home).distanceM
        if law.hasArrived(distanceM: distanceM) {
            return Transition(to: .landing, reason: .batteryLow,
                              log: .log(.warning, "battery \(state.batteryPercent)% low at home: landing"))
        }
        let neededPercent = returnCostPercent(distanceM: distanceM, now: now)
        let sparePercent = percent - configuration.failsafes.batteryReservePercent
        let figures = "\(Int(distanceM)) m from home needs ~\(Int(neededPercent.rounded(.up)))%, "
            + "\(state.batteryPercent)% left (reserve \(Int(configuration.failsafes.batteryReservePercent))%)"
        guard neededPercent <= sparePercent else {
            return Transition(to: .landing, reason: .batteryLowCannotReturn,
                              log: .log(.warning, "battery low: \(figures): landing where the drone is"))
        }
        return returnTransition(goal: .home, reason: .batteryLowReturn, now: now,
                                log: .log(.warning, "battery low: \(figures): returning home"))
    }
}
