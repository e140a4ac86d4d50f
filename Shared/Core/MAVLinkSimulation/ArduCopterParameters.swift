import MAVLink

/// The few ArduCopter parameters the simulator honours, with ArduCopter's defaults and ArduPilot's wire packing
/// (every type's value cast to the float, not its bytes). Pure: PARAM_* messages in, PARAM_VALUE answers out; an
/// unknown name is not answered, as ArduPilot does.
public struct ArduCopterParameters: Sendable, Equatable {
    public typealias Definition = ParameterTable.Definition

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

    private var table = ParameterTable(definitions: definitions, packing: .cast)

    public init() {}

    public subscript(_ name: String) -> Double? { table[name] }

    public var guidedTimeout: Duration { .microseconds(Int64((self["GUID_TIMEOUT"] ?? 3) * 1_000_000)) }
    public var disarmDelay: Duration { .microseconds(Int64((self["DISARM_DELAY"] ?? 10) * 1_000_000)) }
    public var returnAltitudeM: Double { (self["RTL_ALT"] ?? 1500) / 100 }

    /// Sets a parameter from a number (tests, PARAM_SET); integer types are truncated.
    public mutating func set(_ name: String, to value: Double) throws(ParameterTable.SetError) {
        try table.set(name, to: value)
    }

    /// PARAM_SET: the float is the value, whatever the type.
    public mutating func apply(_ message: ParamSet) throws(ParameterTable.SetError) -> ParamValue {
        try table.apply(message)
    }

    /// PARAM_REQUEST_READ: by name when `paramIndex` is −1, else by index; nil for neither.
    public func read(_ request: ParamRequestRead) -> ParamValue? { table.read(request) }

    /// PARAM_REQUEST_LIST: every parameter.
    public var all: [ParamValue] { table.all }
}
