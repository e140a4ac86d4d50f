import MAVLink

/// The few PX4 parameters the simulator honours, with PX4's defaults and PX4's wire packing (an INT32's bits in
/// the float, bytewise). Pure: PARAM_* messages in, PARAM_VALUE answers out.
public struct PX4Parameters: Sendable, Equatable {
    public typealias Definition = ParameterTable.Definition
    public typealias SetError = ParameterTable.SetError

    /// Index order is the PARAM_VALUE index.
    public static let definitions: [Definition] = [
        // Seconds without offboard setpoints before the failsafe.
        Definition(name: "COM_OF_LOSS_T", type: ParamValue.typeReal32, defaultValue: 1, range: 0...60),
        // What the offboard-loss failsafe does (0 Position … 7 Disarm); see `OffboardLossAction`.
        Definition(name: "COM_OBL_RC_ACT", type: ParamValue.typeInt32, defaultValue: 0, range: 0...7),
        // NAV_TAKEOFF's default altitude above home (m).
        Definition(name: "MIS_TAKEOFF_ALT", type: ParamValue.typeReal32, defaultValue: 2.5, range: 0...80),
        // Seconds on the ground after landing before PX4 disarms.
        Definition(name: "COM_DISARM_LAND", type: ParamValue.typeReal32, defaultValue: 2, range: -1...20),
        // Return altitude above home (m).
        Definition(name: "RTL_RETURN_ALT", type: ParamValue.typeReal32, defaultValue: 30, range: 0...150),
    ]

    private var table = ParameterTable(definitions: definitions, packing: .bytewise)

    public init() {}

    public subscript(_ name: String) -> Double? { table[name] }

    public var offboardLoss: Duration { .microseconds(Int64((self["COM_OF_LOSS_T"] ?? 1) * 1_000_000)) }
    public var offboardLossAction: Int { Int(self["COM_OBL_RC_ACT"] ?? 0) }
    public var takeoffAltitudeM: Double { self["MIS_TAKEOFF_ALT"] ?? 2.5 }
    public var disarmAfterLanding: Duration { .microseconds(Int64(max(0, self["COM_DISARM_LAND"] ?? 2) * 1_000_000)) }
    public var returnAltitudeM: Double { self["RTL_RETURN_ALT"] ?? 30 }

    /// Sets a parameter from a number already decoded (`--param`, tests).
    public mutating func set(_ name: String, to value: Double) throws(SetError) { try table.set(name, to: value) }

    /// PARAM_SET: the value as PX4 packs it (INT32 bytewise, whatever type the sender claims for a known name).
    public mutating func apply(_ message: ParamSet) throws(SetError) -> ParamValue { try table.apply(message) }

    /// PARAM_REQUEST_READ: by name when `paramIndex` is −1, else by index; nil for neither.
    public func read(_ request: ParamRequestRead) -> ParamValue? { table.read(request) }

    /// PARAM_REQUEST_LIST: every parameter.
    public var all: [ParamValue] { table.all }
}
