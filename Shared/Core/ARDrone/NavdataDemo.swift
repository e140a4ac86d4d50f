/// The demo option (tag 0, always 148 bytes), in the units the drone sends. SI views are computed.
///
/// Altitude is millimetres (the SDK comment says cm, which is wrong); angles are millidegrees; velocities mm/s;
/// battery is a percentage (the SDK comment says mV, also wrong).
public struct NavdataDemo: Sendable, Equatable {
    /// `(major << 16) | minor`, SDK CTRL_STATES (2 landed, 3 flying, 4 hovering, 6 taking off, 8 landing …).
    public var controlState: UInt32
    public var batteryPercent: UInt32
    /// theta; negative = nose down.
    public var pitchMilliDeg: Float
    /// phi; positive = right wing down.
    public var rollMilliDeg: Float
    /// psi, about −180 000 … +180 000.
    public var yawMilliDeg: Float
    public var altitudeMm: Int32
    public var velocityXMmps: Float
    public var velocityYMmps: Float
    public var velocityZMmps: Float
    /// num_frames: video frame index.
    public var frameIndex: UInt32

    public init(controlState: UInt32, batteryPercent: UInt32, pitchMilliDeg: Float, rollMilliDeg: Float,
                yawMilliDeg: Float, altitudeMm: Int32, velocityXMmps: Float, velocityYMmps: Float,
                velocityZMmps: Float, frameIndex: UInt32 = 0) {
        self.controlState = controlState
        self.batteryPercent = batteryPercent
        self.pitchMilliDeg = pitchMilliDeg
        self.rollMilliDeg = rollMilliDeg
        self.yawMilliDeg = yawMilliDeg
        self.altitudeMm = altitudeMm
        self.velocityXMmps = velocityXMmps
        self.velocityYMmps = velocityYMmps
        self.velocityZMmps = velocityZMmps
        self.frameIndex = frameIndex
    }

    /// Builds the option from SI units (for the simulator); altitude is rounded to whole millimetres.
    public init(majorState: UInt16, minorState: UInt16 = 0, batteryPercent: UInt32, pitchDeg: Float,
                rollDeg: Float, yawDeg: Float, altitudeM: Double, velocityXMps: Float, velocityYMps: Float,
                velocityZMps: Float, frameIndex: UInt32 = 0) {
        self.init(controlState: UInt32(majorState) << 16 | UInt32(minorState), batteryPercent: batteryPercent,
                  pitchMilliDeg: pitchDeg * 1000, rollMilliDeg: rollDeg * 1000, yawMilliDeg: yawDeg * 1000,
                  altitudeMm: NavdataUnits.clampedInt32(altitudeM * 1000), velocityXMmps: velocityXMps * 1000,
                  velocityYMmps: velocityYMps * 1000, velocityZMmps: velocityZMps * 1000, frameIndex: frameIndex)
    }

    public var majorState: UInt16 { UInt16(truncatingIfNeeded: controlState >> 16) }
    public var minorState: UInt16 { UInt16(truncatingIfNeeded: controlState) }
    public var pitchDeg: Float { pitchMilliDeg / 1000 }
    public var rollDeg: Float { rollMilliDeg / 1000 }
    public var yawDeg: Float { yawMilliDeg / 1000 }
    public var altitudeM: Float { Float(altitudeMm) / 1000 }
    public var velocityXMps: Float { velocityXMmps / 1000 }
    public var velocityYMps: Float { velocityYMmps / 1000 }
    public var velocityZMps: Float { velocityZMmps / 1000 }
}

extension NavdataDemo: NavdataOptionLayout {
    static let tag = NavdataTag.demo
    static let wireSize = 148

    init(payload reader: inout ByteReader) {
        controlState = reader.u32()
        batteryPercent = reader.u32()
        pitchMilliDeg = reader.f32()
        rollMilliDeg = reader.f32()
        yawMilliDeg = reader.f32()
        altitudeMm = reader.i32()
        velocityXMmps = reader.f32()
        velocityYMmps = reader.f32()
        velocityZMmps = reader.f32()
        frameIndex = reader.u32()
        // The remaining 104 bytes are deprecated detection/camera matrices.
    }

    func writePayload(to writer: inout ByteWriter) {
        writer.u32(controlState)
        writer.u32(batteryPercent)
        writer.f32(pitchMilliDeg)
        writer.f32(rollMilliDeg)
        writer.f32(yawMilliDeg)
        writer.i32(altitudeMm)
        writer.f32(velocityXMmps)
        writer.f32(velocityYMmps)
        writer.f32(velocityZMmps)
        writer.u32(frameIndex)
        writer.zeros(Self.wireSize - 4 - 40)
    }
}
