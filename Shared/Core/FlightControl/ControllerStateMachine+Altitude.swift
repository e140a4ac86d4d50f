import Clocks
import QuadProtocol

/// The vertical half of the envelope: which altitude to hold, the gaz that gets there, the ceiling.
extension ControllerStateMachine {
    var altitudeHold: AltitudeHold { configuration.altitude }

    /// The altitude navdata reports, while fresh.
    func currentAltitudeM(now: MonotonicInstant) -> Double? {
        guard droneStateFresh(now: now), let state = lastDroneState, state.altitudeM.isFinite else { return nil }
        return Double(state.altitudeM)
    }

    /// A target's own altitude, else the cruise altitude.
    func wantedAltitude(for target: Target?) -> Double {
        target?.altitudeM.map(Double.init) ?? altitudeHold.cruiseAltitudeM
    }

    /// True when nothing is wanted, or navdata shows the wanted altitude within the tolerance.
    func altitudeReached(now: MonotonicInstant) -> Bool {
        guard let wanted = wantedAltitudeM else { return true }
        guard let current = currentAltitudeM(now: now) else { return false }
        return altitudeHold.isReached(currentM: current, wantedM: wanted)
    }

    /// Why a target's altitude is not acceptable, or nil.
    func altitudeRefusal(_ candidate: Target) -> Reason? {
        guard let altitude = candidate.altitudeM else { return nil }
        guard altitude.isFinite, altitude >= 0 else { return .targetInvalidAltitude }
        return Double(altitude) > altitudeHold.maxAltitudeM ? .targetRefusedCeiling : nil
    }

    /// Gaz toward the wanted altitude. A steering command carries it along. A hover that is off by more than
    /// half the tolerance has to become flag 1 (flag 0 ignores gaz), which also gives up the drone's vision
    /// position hold: so it asks for zero ground speed through the wind compensation (tilt against the measured
    /// drift), plus the gaz; within the tolerance it is flag 0 again. Behind mavlink-link the hover is the
    /// autopilot's held point, whose height a climb-only command moves: the gaz alone, no tilt (a tilt against
    /// measured drift there became a velocity, which dropped the held point: 0.4 m/s of wander on PX4), beyond
    /// a smaller error (`AltitudeHold.heldPointDeadbandM`).
    func holdAltitude(_ command: inout FlightCommand, now: MonotonicInstant) {
        guard let wanted = wantedAltitudeM, let current = currentAltitudeM(now: now) else { return }
        if !command.progressive {
            guard altitudeHold.needsCorrection(currentM: current, wantedM: wanted,
                                               holdsPoint: vehicleHoldsGroundVelocity) else { return }
            if vehicleHoldsGroundVelocity {
                command.progressive = true
            } else {
                apply(.steer(yawFrac: 0, pitchFrac: 0), compensation: configuration.windCompensation, to: &command,
                      now: now)
            }
        }
        command.gazFrac = altitudeHold.gazFrac(currentM: current, wantedM: wanted)
    }
}
