import Navigation

/// The objc.io steering rule as a pure function, with every gain configurable, plus a slowdown zone and
/// arrival hysteresis. Output uses the AR.Drone SDK signs: positive yaw turns clockwise (toward a target on
/// the right) and NEGATIVE pitch flies forward (objc.io put its forward speed into pitch unsigned, which
/// flies backwards).
public struct ControlLaw: Sendable, Equatable {
    /// Closer than this the drone hovers (article: 1 m).
    public var arrivalRadiusM: Double
    /// Once arrived, steer again only beyond `arrivalRadiusM × leaveArrivalFactor`, so GPS jitter
    /// around the arrival radius does not toggle between hovering and flying.
    public var leaveArrivalFactor: Double
    /// Yaw fraction per degree of direction difference (article: 0.01), clamped to ±`maxYawFrac`.
    public var yawGainPerDeg: Double
    public var maxYawFrac: Double
    /// Fly forward only when the target is within ± this many degrees of the nose (article: 45°).
    public var alignedWithinDeg: Double
    /// Forward fraction outside the slowdown radius (article: 0.2).
    public var cruiseForwardFrac: Double
    /// Inside this distance the forward fraction shrinks linearly with distance (0 disables slowdown).
    public var slowdownRadiusM: Double
    /// The slowdown never goes below this, so the drone still arrives against a light wind.
    public var minimumForwardFrac: Double

    public init(arrivalRadiusM: Double = 1, leaveArrivalFactor: Double = 2, yawGainPerDeg: Double = 0.01,
                maxYawFrac: Double = 1, alignedWithinDeg: Double = 45, cruiseForwardFrac: Double = 0.2,
                slowdownRadiusM: Double = 5, minimumForwardFrac: Double = 0.05) {
        self.arrivalRadiusM = arrivalRadiusM
        self.leaveArrivalFactor = leaveArrivalFactor
        self.yawGainPerDeg = yawGainPerDeg
        self.maxYawFrac = maxYawFrac
        self.alignedWithinDeg = alignedWithinDeg
        self.cruiseForwardFrac = cruiseForwardFrac
        self.slowdownRadiusM = slowdownRadiusM
        self.minimumForwardFrac = minimumForwardFrac
    }

    /// What to put into PCMD.
    public enum Steering: Sendable, Equatable {
        /// PCMD flag 0: hold position.
        case hover
        /// PCMD flag 1 with these fractions (roll and gaz stay 0).
        case steer(yawFrac: Float, pitchFrac: Float)
    }

    /// Steering toward a target `distanceM` away, `directionDifferenceDeg` to the right of the nose.
    /// Non-finite input (a corrupt solution) hovers.
    public func steering(distanceM: Double, directionDifferenceDeg: Double) -> Steering {
        guard distanceM.isFinite, directionDifferenceDeg.isFinite, !hasArrived(distanceM: distanceM) else {
            return .hover
        }
        let differenceDeg = Geodesy.wrapDeg180(directionDifferenceDeg)
        let yaw = min(max(differenceDeg * yawGainPerDeg, -maxYawFrac), maxYawFrac)
        let forward = abs(differenceDeg) < alignedWithinDeg ? forwardFrac(distanceM: distanceM) : 0
        return .steer(yawFrac: Float(yaw), pitchFrac: Float(-forward))
    }

    /// Forward fraction at a distance: cruise outside the slowdown radius, linear inside, never below the minimum.
    public func forwardFrac(distanceM: Double) -> Double {
        guard slowdownRadiusM > 0, distanceM < slowdownRadiusM else { return cruiseForwardFrac }
        let scaled = cruiseForwardFrac * max(distanceM, 0) / slowdownRadiusM
        return min(max(scaled, minimumForwardFrac), cruiseForwardFrac)
    }

    /// Close enough to count as arrived.
    public func hasArrived(distanceM: Double) -> Bool { distanceM < arrivalRadiusM }

    /// Far enough from an arrived-at target to start flying again (hysteresis).
    public func hasLeftArrival(distanceM: Double) -> Bool { distanceM > arrivalRadiusM * leaveArrivalFactor }
}
