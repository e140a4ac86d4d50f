/// Holds an altitude with PCMD gaz (a fraction of `control:control_vz_max`, positive climbs). objc.io never
/// touched gaz, so every flight stayed at the ~1 m takeoff height; a proportional law on the navdata altitude is
/// enough because the drone itself closes the vertical-speed loop (gaz is a climb-rate demand, not thrust).
public struct AltitudeHold: Sendable, Equatable {
    /// Altitude after takeoff, and for targets without one, metres above ground.
    public var cruiseAltitudeM: Double
    /// Targets above this are refused; drone-link also writes it into the drone's own `control:altitude_max`.
    public var maxAltitudeM: Double
    /// Arrival needs the altitude within this many metres of the wanted one.
    public var toleranceM: Double
    /// Gaz fraction per metre of altitude error (1: full climb rate from 1 m away, ~0.7 m/s on the AR.Drone).
    public var gainPerM: Double
    public var maxGazFrac: Double

    public init(cruiseAltitudeM: Double = 3, maxAltitudeM: Double = 10, toleranceM: Double = 0.3,
                gainPerM: Double = 1, maxGazFrac: Double = 1) {
        self.cruiseAltitudeM = cruiseAltitudeM
        self.maxAltitudeM = maxAltitudeM
        self.toleranceM = toleranceM
        self.gainPerM = gainPerM
        self.maxGazFrac = maxGazFrac
    }

    /// Gaz toward `wantedM` from `currentM`; 0 for non-finite input.
    public func gazFrac(currentM: Double, wantedM: Double) -> Float {
        guard currentM.isFinite, wantedM.isFinite else { return 0 }
        return Float(min(max((wantedM - currentM) * gainPerM, -maxGazFrac), maxGazFrac))
    }

    /// Within the arrival tolerance.
    public func isReached(currentM: Double, wantedM: Double) -> Bool {
        currentM.isFinite && abs(wantedM - currentM) <= toleranceM
    }

    /// Behind an autopilot that holds a point (`holdsPoint`) a climb-only correction keeps that hold: beyond this
    /// the held height is moved. With half the tolerance there the held height was wherever a correction ended
    /// (2.85–3.15 m for 3 m) and PX4 SIH's own hold wanders ±0.2 m about it: 3.33 m once in a 3.0 ± 0.3 m hover.
    public static let heldPointDeadbandM = 0.05

    /// In a hover the drone holds its altitude by itself: correct only errors beyond half the tolerance, so an
    /// altitude reached stays a plain hover (PCMD flag 0, vision position hold) instead of flag 1 with zero tilt;
    /// beyond `heldPointDeadbandM` where the vehicle holds a point.
    public func needsCorrection(currentM: Double, wantedM: Double, holdsPoint: Bool = false) -> Bool {
        currentM.isFinite && abs(wantedM - currentM) > (holdsPoint ? Self.heldPointDeadbandM : toleranceM / 2)
    }
}
