/// The latest AT*PCMD values: flag, then roll, pitch, gaz, yaw as fractions in [−1, 1].
/// Signs follow the SDK: negative pitch = forward, positive roll = right, positive gaz = climb,
/// positive yaw = clockwise seen from above.
public struct ProgressiveCommand: Sendable, Equatable {
    public var flag: Int32
    public var roll: Double
    public var pitch: Double
    public var gaz: Double
    public var yaw: Double

    public init(flag: Int32, roll: Double, pitch: Double, gaz: Double, yaw: Double) {
        self.flag = flag
        self.roll = ProgressiveCommand.clampUnit(roll)
        self.pitch = ProgressiveCommand.clampUnit(pitch)
        self.gaz = ProgressiveCommand.clampUnit(gaz)
        self.yaw = ProgressiveCommand.clampUnit(yaw)
    }

    /// Flag 0: ignore the values and hold position (the real drone uses its bottom camera for this).
    public static let hover = ProgressiveCommand(flag: 0, roll: 0, pitch: 0, gaz: 0, yaw: 0)

    /// Flag bit 0 set: the four values are to be used.
    public var isProgressive: Bool { flag & 1 == 1 }

    /// NaN (a garbage float from the wire) becomes 0, everything else is clamped to [−1, 1].
    static func clampUnit(_ value: Double) -> Double {
        guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? 1 : -1) }
        return min(1, max(-1, value))
    }
}
