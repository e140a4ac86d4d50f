/// Limits written into the drone's own configuration at connect, so the aircraft enforces them even when the
/// board (controller, link) dies: `control:altitude_max` (millimetres) and `control:euler_angle_max` (radians,
/// the tilt PCMD pitch/roll ±1 stand for).
public struct DroneEnvelope: Sendable, Equatable {
    public var maxAltitudeM: Double
    public var maxTiltDeg: Double

    /// 10 m ceiling (the controller's `--max-altitude` default); 12° tilt (the SDK's default euler_angle_max).
    public init(maxAltitudeM: Double = 10, maxTiltDeg: Double = 12) {
        self.maxAltitudeM = maxAltitudeM
        self.maxTiltDeg = maxTiltDeg
    }

    /// The AT*CONFIG commands, in the order the handshake sends them.
    public var configs: [ATCommand] {
        let millimetres = Int((maxAltitudeM * 1000).rounded())
        let radians = maxTiltDeg * .pi / 180
        return [
            .config(key: "control:altitude_max", value: "\(millimetres)"),
            .config(key: "control:euler_angle_max", value: "\(radians)"),
        ]
    }
}
