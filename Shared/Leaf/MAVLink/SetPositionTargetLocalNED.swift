/// SET_POSITION_TARGET_LOCAL_NED (84): an offboard setpoint. `typeMask` bits set = fields ignored.
public struct SetPositionTargetLocalNED: MAVLinkMessage {
    public static let messageId: UInt32 = 84
    public static let crcExtra: UInt8 = 143
    public static let fullLength = 53

    /// Only vx, vy, vz and yaw rate are used (positions, accelerations and yaw ignored).
    public static let velocityAndYawRateMask: UInt16 = 0b0000_0101_1100_0111
    /// Only x, y, z and yaw are used (velocities, accelerations and yaw rate ignored).
    public static let positionAndYawMask: UInt16 = 0b0000_1001_1111_1000
    /// Only x, y, z and yaw rate are used (velocities, accelerations and yaw ignored): hold a point, turn on it.
    public static let positionAndYawRateMask: UInt16 = 0b0000_0101_1111_1000
    /// x, y, z, the velocities and yaw are used (accelerations and yaw rate ignored): the velocities are PX4's
    /// feed-forward on top of its position loop.
    public static let positionVelocityAndYawMask: UInt16 = 0b0000_1001_1100_0000

    public var timeBootMs: UInt32
    public var xM: Float = 0
    public var yM: Float = 0
    public var zM: Float = 0
    public var vxMps: Float
    public var vyMps: Float
    public var vzMps: Float
    public var afxMps2: Float = 0
    public var afyMps2: Float = 0
    public var afzMps2: Float = 0
    public var yawRad: Float = 0
    public var yawRateRadps: Float
    public var typeMask: UInt16
    public var targetSystem: UInt8
    public var targetComponent: UInt8
    /// MAV_FRAME: 1 LOCAL_NED, 8 BODY_NED.
    public var coordinateFrame: UInt8

    /// A velocity + yaw-rate setpoint in the body frame (x forward, y right, z down).
    public static func bodyVelocity(timeBootMs: UInt32, forwardMps: Float, rightMps: Float, downMps: Float,
                                    yawRateRadps: Float, targetSystem: UInt8, targetComponent: UInt8) -> Self {
        Self(timeBootMs: timeBootMs, vxMps: forwardMps, vyMps: rightMps, vzMps: downMps, yawRateRadps: yawRateRadps,
             typeMask: velocityAndYawRateMask, targetSystem: targetSystem, targetComponent: targetComponent,
             coordinateFrame: MAVFrame.bodyNED)
    }

    /// A position + yaw setpoint in the autopilot's local frame (metres north, east, down of its origin).
    public static func localPosition(timeBootMs: UInt32, northM: Float, eastM: Float, downM: Float, yawRad: Float,
                                     targetSystem: UInt8, targetComponent: UInt8) -> Self {
        var setpoint = Self(timeBootMs: timeBootMs, vxMps: 0, vyMps: 0, vzMps: 0, yawRateRadps: 0,
                            typeMask: positionAndYawMask, targetSystem: targetSystem,
                            targetComponent: targetComponent, coordinateFrame: MAVFrame.localNED)
        setpoint.xM = northM
        setpoint.yM = eastM
        setpoint.zM = downM
        setpoint.yawRad = yawRad
        return setpoint
    }

    /// A position setpoint in the autopilot's local frame, turning at `yawRateRadps` there.
    public static func localPositionTurning(timeBootMs: UInt32, northM: Float, eastM: Float, downM: Float,
                                            yawRateRadps: Float, targetSystem: UInt8,
                                            targetComponent: UInt8) -> Self {
        var setpoint = localPosition(timeBootMs: timeBootMs, northM: northM, eastM: eastM, downM: downM, yawRad: 0,
                                     targetSystem: targetSystem, targetComponent: targetComponent)
        setpoint.yawRateRadps = yawRateRadps
        setpoint.typeMask = positionAndYawRateMask
        return setpoint
    }

    /// A position setpoint in the autopilot's local frame with a descent of `downMps` fed forward: `downM` follows
    /// the vehicle, so the descent's speed is the feed-forward's (a landing: PX4's land detector wants a commanded
    /// descent).
    public static func localPositionDescending(timeBootMs: UInt32, northM: Float, eastM: Float, downM: Float,
                                               downMps: Float, yawRad: Float, targetSystem: UInt8,
                                               targetComponent: UInt8) -> Self {
        var setpoint = localPosition(timeBootMs: timeBootMs, northM: northM, eastM: eastM, downM: downM,
                                     yawRad: yawRad, targetSystem: targetSystem, targetComponent: targetComponent)
        setpoint.vzMps = downMps
        setpoint.typeMask = positionVelocityAndYawMask
        return setpoint
    }

    public init(timeBootMs: UInt32, vxMps: Float, vyMps: Float, vzMps: Float, yawRateRadps: Float, typeMask: UInt16,
                targetSystem: UInt8, targetComponent: UInt8, coordinateFrame: UInt8) {
        self.timeBootMs = timeBootMs
        self.vxMps = vxMps
        self.vyMps = vyMps
        self.vzMps = vzMps
        self.yawRateRadps = yawRateRadps
        self.typeMask = typeMask
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
        self.coordinateFrame = coordinateFrame
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        timeBootMs = p.read()
        xM = p.float()
        yM = p.float()
        zM = p.float()
        vxMps = p.float()
        vyMps = p.float()
        vzMps = p.float()
        afxMps2 = p.float()
        afyMps2 = p.float()
        afzMps2 = p.float()
        yawRad = p.float()
        yawRateRadps = p.float()
        typeMask = p.read()
        targetSystem = p.read()
        targetComponent = p.read()
        coordinateFrame = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(timeBootMs)
        for value in [xM, yM, zM, vxMps, vyMps, vzMps, afxMps2, afyMps2, afzMps2, yawRad,
            yawRateRadps] { p.float(value) }
        p.write(typeMask)
        p.write(targetSystem)
        p.write(targetComponent)
        p.write(coordinateFrame)
    }
}
