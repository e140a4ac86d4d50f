/// Three floats from the magneto option, milligauss.
public struct MagnetoVector: Sendable, Equatable {
    public var x: Float
    public var y: Float
    public var z: Float

    public init(x: Float, y: Float, z: Float) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = MagnetoVector(x: 0, y: 0, z: 0)
}

/// The magneto option (tag 22). The SDK struct is 75 bytes; the firmware sends 83 (8 unknown bytes at the
/// end, written as zeros here).
///
/// Headings are taken to be degrees. node-ar-drone labels `headingFusionUnwrappedDeg` "mdeg"; other clients
/// use it as degrees (conflict in the sources, unverified on a real drone). "Unwrapped" means it is not
/// limited to [0, 360).
public struct NavdataMagneto: Sendable, Equatable {
    /// Raw sensor counts mx, my, mz.
    public var countX: Int16
    public var countY: Int16
    public var countZ: Int16
    public var raw: MagnetoVector
    public var rectified: MagnetoVector
    public var offset: MagnetoVector
    public var headingUnwrappedDeg: Float
    public var headingGyroUnwrappedDeg: Float
    /// The usable fused compass heading.
    public var headingFusionUnwrappedDeg: Float
    public var calibrationOK: UInt8
    public var state: UInt32
    public var radius: Float
    public var errorMean: Float
    public var errorVariance: Float

    public init(countX: Int16 = 0, countY: Int16 = 0, countZ: Int16 = 0, raw: MagnetoVector = .zero,
                rectified: MagnetoVector = .zero, offset: MagnetoVector = .zero, headingUnwrappedDeg: Float = 0,
                headingGyroUnwrappedDeg: Float = 0, headingFusionUnwrappedDeg: Float, calibrationOK: UInt8 = 1,
                state: UInt32 = 0, radius: Float = 0, errorMean: Float = 0, errorVariance: Float = 0) {
        self.countX = countX
        self.countY = countY
        self.countZ = countZ
        self.raw = raw
        self.rectified = rectified
        self.offset = offset
        self.headingUnwrappedDeg = headingUnwrappedDeg
        self.headingGyroUnwrappedDeg = headingGyroUnwrappedDeg
        self.headingFusionUnwrappedDeg = headingFusionUnwrappedDeg
        self.calibrationOK = calibrationOK
        self.state = state
        self.radius = radius
        self.errorMean = errorMean
        self.errorVariance = errorVariance
    }
}

extension NavdataMagneto: NavdataOptionLayout {
    static let tag = NavdataTag.magneto
    static let wireSize = 83
    static let minimumSize = 75

    init(payload reader: inout ByteReader) {
        countX = reader.i16()
        countY = reader.i16()
        countZ = reader.i16()
        raw = Self.readVector(&reader)
        rectified = Self.readVector(&reader)
        offset = Self.readVector(&reader)
        headingUnwrappedDeg = reader.f32()
        headingGyroUnwrappedDeg = reader.f32()
        headingFusionUnwrappedDeg = reader.f32()
        calibrationOK = reader.u8()
        state = reader.u32()
        radius = reader.f32()
        errorMean = reader.f32()
        errorVariance = reader.f32()
    }

    func writePayload(to writer: inout ByteWriter) {
        writer.i16(countX)
        writer.i16(countY)
        writer.i16(countZ)
        for vector in [raw, rectified, offset] {
            writer.f32(vector.x)
            writer.f32(vector.y)
            writer.f32(vector.z)
        }
        writer.f32(headingUnwrappedDeg)
        writer.f32(headingGyroUnwrappedDeg)
        writer.f32(headingFusionUnwrappedDeg)
        writer.u8(calibrationOK)
        writer.u32(state)
        writer.f32(radius)
        writer.f32(errorMean)
        writer.f32(errorVariance)
        writer.zeros(Self.wireSize - Self.minimumSize)
    }

    private static func readVector(_ reader: inout ByteReader) -> MagnetoVector {
        MagnetoVector(x: reader.f32(), y: reader.f32(), z: reader.f32())
    }
}
