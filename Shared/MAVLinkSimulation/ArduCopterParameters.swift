import MAVLink

/// The few ArduCopter parameters the simulator honours, with ArduCopter's defaults and ArduPilot's wire packing
/// (every type's value cast to the float, not its bytes). Pure: PARAM_* messages in, PARAM_VALUE answers out; an
/// unknown name is not answered, as ArduPilot does.
public struct ArduCopterParameters: Sendable, Equatable {
    public struct Definition: Sendable, Equatable {
        public var name: String
        /// MAV_PARAM_TYPE: 2 INT8, 4 INT16, 6 INT32, 9 REAL32 (what ArduCopter reports for the name).
        public var type: UInt8
        public var defaultValue: Double
        public var range: ClosedRange<Double>
    }

    static let typeInt8: UInt8 = 2
    static let typeInt16: UInt8 = 4

    /// Index order is the PARAM_VALUE index.
    public static let definitions: [Definition] = [
        // Seconds without a GUIDED velocity setpoint before the copter stops and holds its position.
        Definition(name: "GUID_TIMEOUT", type: ParamValue.typeReal32, defaultValue: 3, range: 0.1...5),
        // The GCS failsafe (0 off, 1 RTL, …); it watches the heartbeats of SYSID_MYGCS. Read, not acted on.
        Definition(name: "FS_GCS_ENABLE", type: typeInt8, defaultValue: 0, range: 0...7),
        // The ground station's system id whose heartbeats the GCS failsafe watches.
        Definition(name: "SYSID_MYGCS", type: typeInt16, defaultValue: 255, range: 1...255),
        // Seconds armed on the ground before the copter disarms by itself.
        Definition(name: "DISARM_DELAY", type: typeInt8, defaultValue: 10, range: 0...127),
        // RTL's return altitude above home, centimetres (capped by the airframe's ceiling).
        Definition(name: "RTL_ALT", type: ParamValue.typeInt32, defaultValue: 1500, range: 200...300_000),
    ]

    private var values: [Double] = definitions.map(\.defaultValue)

    public init() {}

    public subscript(_ name: String) -> Double? {
        Self.definitions.firstIndex { $0.name == name }.map { values[$0] }
    }

    public var guidedTimeoutUs: Int64 { Int64((self["GUID_TIMEOUT"] ?? 3) * 1_000_000) }
    public var disarmDelayUs: Int64 { Int64((self["DISARM_DELAY"] ?? 10) * 1_000_000) }
    public var returnAltitudeM: Double { (self["RTL_ALT"] ?? 1500) / 100 }

    /// Sets a parameter from a number (tests, PARAM_SET); integer types are truncated.
    public mutating func set(_ name: String, to value: Double) throws(PX4Parameters.SetError) {
        guard let index = Self.definitions.firstIndex(where: { $0.name == name }) else { throw .unknownName(name) }
        let definition = Self.definitions[index]
        guard value.isFinite, definition.range.contains(value) else { throw .outOfRange(name, value) }
        values[index] = definition.type == ParamValue.typeReal32 ? value : value.rounded(.towardZero)
    }

    /// PARAM_SET: the float is the value, whatever the type.
    public mutating func apply(_ message: ParamSet) throws(PX4Parameters.SetError) -> ParamValue {
        try set(message.paramId, to: Double(message.paramValue))
        return value(at: Self.definitions.firstIndex { $0.name == message.paramId } ?? 0)
    }

    /// PARAM_REQUEST_READ: by name when `paramIndex` is −1, else by index; nil for neither.
    public func read(_ request: ParamRequestRead) -> ParamValue? {
        let index = request.paramIndex < 0
            ? Self.definitions.firstIndex { $0.name == request.paramId } : Int(request.paramIndex)
        guard let index, Self.definitions.indices.contains(index) else { return nil }
        return value(at: index)
    }

    /// PARAM_REQUEST_LIST: every parameter.
    public var all: [ParamValue] { Self.definitions.indices.map(value(at:)) }

    func value(at index: Int) -> ParamValue {
        let definition = Self.definitions[index]
        return ParamValue(paramId: definition.name, paramValue: Float(values[index]), paramType: definition.type,
                          paramCount: UInt16(Self.definitions.count), paramIndex: UInt16(index))
    }
}
