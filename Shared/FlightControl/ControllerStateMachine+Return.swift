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
    /// Starts (or re-aims) a return; the target is dropped, the altitude becomes the return altitude.
    mutating func startReturn(goal: ReturnGoal, reason: Reason, nowUs: Int64) {
        clearTarget()
        let altitudeM = returnAltitudeM(nowUs: nowUs)
        apply(Transition(to: .returningHome, reason: reason), nowUs: nowUs)
        // A new return, or one re-aimed (its start and progress go on): this goal, its arrival measured afresh.
        flight?.wantedAltitudeM = altitudeM
        guard case .returningHome(var returning) = mode else { return }
        returning.goal = goal
        returning.homeArrival.reset()
        mode = .returningHome(returning)
    }

    /// Why a return home cannot start now, or nil.
    func returnRefusal() -> Reason? {
        switch activity {
        case .emergency: return .returnRefusedEmergency
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
    mutating func returnHome(nowUs: Int64) -> [ControllerAction] {
        if let refusal = returnRefusal() { return [refuse(kind: "command", reason: refusal)] }
        startReturn(goal: .home, reason: .returnHome, nowUs: nowUs)
        return []
    }

    /// A position fix while returning: arrival (over home, or back inside the fence) and the progress watch.
    mutating func followReturn(distanceM: Double, bearingDeg: Double, at point: GeoPoint,
                               nowUs: Int64) -> [ControllerAction] {
        guard case .returningHome(var returning) = mode else { return [] }
        switch returning.goal {
        case .insideFence:
            if distanceM <= configuration.geofenceRadiusM - configuration.geofenceReturnMarginM {
                // A target accepted during the return (it was checked against the fence) is flown to next.
                apply(Transition(to: target == nil ? .hovering : .flyingToTarget, reason: .backInsideGeofence),
                           nowUs: nowUs)
                return []
            }
        case .home:
            returning.homeArrival.observe(distanceM: distanceM, bearingDeg: bearingDeg,
                                          latitudeDeg: point.latitudeDeg, longitudeDeg: point.longitudeDeg, atUs: nowUs)
            mode = .returningHome(returning)
            // Home is where the drone lands, not just a point to pass: the position law settles it to half the
            // arrival radius (by the filtered position) before the hover and the landing.
            if let filteredM = returning.homeArrival.filteredDistanceM, filteredM < law.arrivalRadiusM / 2,
               let altitudeM = currentAltitudeM(nowUs: nowUs),
               altitudeM > configuration.returnApproachAltitudeM + configuration.altitude.toleranceM {
                // The landing itself is not steered (the drone's own descent drifts with the wind): come down
                // under the position law first, as autopilots do, and land from low.
                flight?.wantedAltitudeM = configuration.returnApproachAltitudeM
                return []
            }
            if let filteredM = returning.homeArrival.filteredDistanceM, filteredM < law.arrivalRadiusM / 2 {
                // Over home: hover to let the position settle, then land (see `tick`). A target sent meanwhile
                // is a new order and cancels the landing; one stored during the return is not.
                clearTarget()
                apply(Transition(to: .hovering, reason: .homeReached), nowUs: nowUs)
                if case .hovering(var hovering) = mode {
                    hovering.homeReachedLandAtUs = nowUs &+ microseconds(fromSeconds: configuration.returnHomeHoverS)
                    mode = .hovering(hovering)
                }
                return []
            }
        }
        guard nowUs &- returning.startedAtUs >= microseconds(fromSeconds: configuration.geofenceBrakeS) else {
            return []
        }
        let losingGround = returning.progress.observe(distanceM: distanceM, atUs: nowUs)
        mode = .returningHome(returning)
        guard losingGround else { return [] }
        let bestM = returning.progress.bestDistanceM
        clearTarget()
        flight?.returnAbandoned = true
        if configuration.abandonedReturnLandAfterS <= 0 {
            // The wind has won: every second of hover drifts further. Land now, where the drone is.
            apply(Transition(to: .landing, reason: .windTooStrong), nowUs: nowUs)
            return [.log(.warning, "return home lost ground (\(Int(distanceM)) m from home, best \(Int(bestM)) m), "
                + "\(windText): landing at once")]
        }
        apply(Transition(to: .hovering, reason: .returnHomeNotProgressing), nowUs: nowUs)
        flight?.abandonedReturnLandAtUs = nowUs &+ microseconds(fromSeconds: configuration.abandonedReturnLandAfterS)
        return [.log(.warning, "return home lost ground (\(Int(distanceM)) m from home, best \(Int(bestM)) m): "
            + "hovering, landing in \(configuration.abandonedReturnLandAfterS) s")]
    }

    /// The wind estimate in words, for the log lines that blame it.
    var windText: String {
        "wind estimate \(DecimalText.fixed(wind.speedMps, fractionDigits: 1) ?? "?") m/s from "
            + "\(Int(wind.fromDeg.rounded()) % 360)°"
    }

    /// Wind stronger than the air speed a full tilt gives: no manoeuvre can hold or bring back the drone. Land at once.
    mutating func checkWind(nowUs: Int64) -> [ControllerAction] {
        guard activity.isAirborne else { return [] }
        guard wind.speedMps > configuration.windCompensation.fullTiltSpeedMps else { return [] }
        clearTarget()
        apply(Transition(to: .landing, reason: .windTooStrong), nowUs: nowUs)
        let fullTilt = DecimalText.fixed(configuration.windCompensation.fullTiltSpeedMps, fractionDigits: 1) ?? "?"
        return [.log(.warning, "\(windText), above the \(fullTilt) m/s a full tilt flies: landing at once")]
    }

    /// Battery below `--land-battery` in the air: home if what is left covers the way there, else land here.
    mutating func lowBatteryFailsafe(_ state: DroneState, nowUs: Int64) -> [ControllerAction] {
        let percent = Double(state.batteryPercent)
        guard configuration.failsafes.lowBattery == .returnIfReachable, returnRefusal() == nil, let home,
              let position = lastPosition, positionFresh(nowUs: nowUs) else {
            apply(Transition(to: .landing, reason: .batteryLow), nowUs: nowUs)
            return [.log(.warning,
                         "battery \(state.batteryPercent)% below \(configuration.landBatteryPercent)%: landing")]
        }
        let distanceM = Geodesy.inverse(from: position, to: home).distanceM
        if law.hasArrived(distanceM: distanceM) {
            apply(Transition(to: .landing, reason: .batteryLow), nowUs: nowUs)
            return [.log(.warning, "battery \(state.batteryPercent)% low at home: landing")]
        }
        let neededPercent = (flight?.battery ?? BatteryBudget()).percentNeeded(
            distanceM: distanceM, fallbackSpeedMps: configuration.cruiseSpeedMps,
            altitudeM: returnAltitudeM(nowUs: nowUs), hoverS: configuration.returnHomeHoverS)
        let sparePercent = percent - configuration.failsafes.batteryReservePercent
        let figures = "\(Int(distanceM)) m from home needs ~\(Int(neededPercent.rounded(.up)))%, "
            + "\(state.batteryPercent)% left (reserve \(Int(configuration.failsafes.batteryReservePercent))%)"
        guard neededPercent <= sparePercent else {
            apply(Transition(to: .landing, reason: .batteryLowCannotReturn), nowUs: nowUs)
            return [.log(.warning, "battery low: \(figures): landing where the drone is")]
        }
        startReturn(goal: .home, reason: .batteryLowReturn, nowUs: nowUs)
        return [.log(.warning, "battery low: \(figures): returning home")]
    }
}
