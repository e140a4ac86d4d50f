#if canImport(Glibc)
import Glibc
#endif
import Navigation
import QuadProtocol
import TextSupport

/// Returning to the takeoff point: the `return` command and the failsafes that use it (low battery, lost pilot).
/// Like every manoeuvre that commands motion, a return watches its progress (`ProgressWatch`, in
/// `followReturn`): one that loses ground is abandoned — hover, then land.
extension ControllerStateMachine {
    /// A return to start (or to re-aim: its start and progress go on, its arrival is measured afresh for this
    /// goal); the target is dropped now, the altitude becomes the return altitude on entry.
    mutating func returnTransition(goal: ReturnGoal, reason: Reason, nowUs: Int64,
                                   log: ControllerAction? = nil) -> Transition {
        clearTarget()
        return .returningHome(goal: goal, reason: reason, altitudeM: returnAltitudeM(nowUs: nowUs), log: log)
    }

    /// Why a return home cannot start now, or nil.
    func returnRefusal() -> Reason? {
        switch activity {
        case .emergency: return .returnRefusedEmergency
        case .unknown: return .returnRefusedNoDroneState
        case .landed: return .returnRefusedNotAirborne
        case .landing, .takingOff:
            // Only a vehicle that navdata shows in the air can fly home; one on the ground has nowhere to return.
            guard vehicleIsAirborne else { return .returnRefusedNotAirborne }
            if home == nil { return .returnRefusedNoHome }
            return flight?.returnAbandoned == true ? .returnRefusedNotProgressing : nil
        case .hovering, .flyingToTarget, .arrived, .returningHome:
            if home == nil { return .returnRefusedNoHome }
            // After a return lost ground the drone lands where it is; another try would lose ground again.
            if flight?.returnAbandoned == true { return .returnRefusedNotProgressing }
            return nil
        }
    }

    /// The `return` command.
    mutating func returnHome(nowUs: Int64) -> CommandAnswer {
        if let refusal = returnRefusal() { return ([refuse(kind: "command", reason: refusal)], nil) }
        return ([], returnTransition(goal: .home, reason: .returnHome, nowUs: nowUs))
    }

    /// The wind estimate in words, for the log lines that blame it.
    var windText: String {
        "wind estimate \(DecimalText.fixed(wind.speedMps, fractionDigits: 1) ?? "?") m/s from "
            + "\(Int(wind.fromDeg.rounded()) % 360)°"
    }

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
    mutating func lowBatteryFailsafe(_ state: DroneState, nowUs: Int64) -> Transition {
        let percent = Double(state.batteryPercent)
        guard configuration.failsafes.lowBattery == .returnIfReachable, returnRefusal() == nil, let home,
              let position = lastPosition, positionFresh(nowUs: nowUs) else {
            return Transition(to: .landing, reason: .batteryLow, log: .log(.warning,
                "battery \(state.batteryPercent)% below \(configuration.landBatteryPercent)%: landing"))
        }
        let distanceM = Geodesy.inverse(from: position, to: home).distanceM
        if law.hasArrived(distanceM: distanceM) {
            return Transition(to: .landing, reason: .batteryLow,
                              log: .log(.warning, "battery \(state.batteryPercent)% low at home: landing"))
        }
        let neededPercent = (flight?.battery ?? BatteryBudget()).percentNeeded(
            distanceM: distanceM, fallbackSpeedMps: configuration.cruiseSpeedMps,
            altitudeM: returnAltitudeM(nowUs: nowUs), hoverS: configuration.returnHomeHoverS)
        let sparePercent = percent - configuration.failsafes.batteryReservePercent
        let figures = "\(Int(distanceM)) m from home needs ~\(Int(neededPercent.rounded(.up)))%, "
            + "\(state.batteryPercent)% left (reserve \(Int(configuration.failsafes.batteryReservePercent))%)"
        guard neededPercent <= sparePercent else {
            return Transition(to: .landing, reason: .batteryLowCannotReturn,
                              log: .log(.warning, "battery low: \(figures): landing where the drone is"))
        }
        return returnTransition(goal: .home, reason: .batteryLowReturn, nowUs: nowUs,
                                log: .log(.warning, "battery low: \(figures): returning home"))
    }
}
