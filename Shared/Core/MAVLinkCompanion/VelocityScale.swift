/// What a full-scale PCMD fraction means as a velocity: the AR.Drone's defaults (about 5 m/s at full tilt,
/// `control_vz_max` 0.7 m/s, `control_yaw` 100 °/s), so the controller's gains keep their meaning.
public struct VelocityScale: Sendable, Equatable {
    public var maxHorizontalMps: Float = 5
    public var maxClimbMps: Float = 0.7
    public var maxYawRateDegPerS: Float = 100

    public init(maxHorizontalMps: Float = 5, maxClimbMps: Float = 0.7, maxYawRateDegPerS: Float = 100) {
        self.maxHorizontalMps = maxHorizontalMps
        self.maxClimbMps = maxClimbMps
        self.maxYawRateDegPerS = maxYawRateDegPerS
    }
}
