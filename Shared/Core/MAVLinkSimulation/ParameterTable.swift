import MAVLink

/// A simulated autopilot's parameters: names, MAV_PARAM_TYPEs, defaults, ranges, and the autopilot's packing of a
/// value into PARAM_VALUE's float — PX4 puts an INT32's bits in it (bytewise), ArduPilot casts every type's value.
/// Pure: PARAM_* messages in, PARAM_VALUE answers out; an unknown name is not answered.
public struct ParameterTable: Sendable, Equatable {
    public struct Definition: Sendable, Equatable {
        public var name: String
        /// MAV_PARAM_TYPE: 2 INT8, 4 INT16, 6 INT32, 9 REAL32 (what the autopilot reports for the name).
        public var type: UInt8
        public var defaultValue: Double
        public var range: ClosedRange<Double>

        public init(name: String, type: UInt8, defaultValue: Double, range: ClosedRange<Double>) {
            self.name = name
            self.type = type
            self.defaultValue = defaultValue
            self.range = range
        }
    }

    public enum SetError: Error, Equatable, CustomStringConvertible {
        case unknownName(String)
        case outOfRange(String, Double)

        public var description: String {
            switch self {
            case .unknownName(let name): "unknown parameter \(name)"
            case .outOfRange(let name, let value): "\(name) = \(value) is out of range"
            }
        }
    }

    public enum Packing: Sendable, Equatable {
        /// PX4: an INT32's bits in the float.
        case bytewise
        /// ArduPilot: every type's value cast to the float.
        case cast
    }

    /// Index order is the PARAM_VALUE index.
    public let definitions: [Definition]
    public let packing: Packing
    private var values: [Double]

    public init(definitions: [Definition], packing: Packing) {
        self.definitions = definitions
        self.packing = packing
        values = definitions.map(\.defaultValue)
    }

    public subscript(_ name: String) -> Double? {
        definitions.firstIndex { $0.name == name }.map { values[$0] }
    }

    /// Sets a parameter from a number already decoded (`--param`, tests); integer types are truncated.
    public mutating func set(_ name: String, to value: Double) throws(SetError) {
        guard let index = definitions.firstIndex(where: { $0.name == name }) else { throw .unknownName(name) }
        let definition = definitions[index]
        guard value.isFinite, definition.range.contains(value) else { throw .outOfRange(name, value) }
        values[index] = definition.type == ParamValue.typeReal32 ? value : value.rounded(.towardZero)
    }

    /// PARAM_SET: the value as the autopilot unpacks it (PX4: a known INT32 name's float bytewise, whatever type the
    /// sender claims; ArduPilot: the float is the value).
    public mutating func apply(_ message: ParamSet) throws(SetError) -> ParamValue {
        guard let index = definitions.firstIndex(where: { $0.name == message.paramId }) else {
            throw .unknownName(message.paramId)
        }
        let bytewise = packing == .bytewise && definitions[index].type == ParamValue.typeInt32
        try set(definitions[index].name, to: bytewise
            ? Double(Int32(bitPattern: message.paramValue.bitPattern)) : Double(message.paramValue))
        return value(at: index)
    }

    /// PARAM_REQUEST_READ: by name when `paramIndex` is −1, else by index; nil for neither.
    public func read(_ request: ParamRequestRead) -> ParamValue? {
        let index = request.paramIndex < 0
            ? definitions.firstIndex { $0.name == request.paramId } : Int(request.paramIndex)
        guard let index, definitions.indices.contains(index) else { return nil }
        return value(at: index)
    }

    /// PARAM_REQUEST_LIST: every parameter.
    public var all: [ParamValue] { definitions.indices.map(value(at:)) }

    func value(at index: Int) -> ParamValue {
        let definition = definitions[index]
        let wire = packing == .bytewise && definition.type == ParamValue.typeInt32
            ? Float(bitPattern: UInt32(bitPattern: Int32(values[index]))) : Float(values[index])
        return ParamValue(paramId: definition.name, paramValue: wire, paramType: definition.type,
                          paramCount: UInt16(definitions.count), paramIndex: UInt16(index))
    }
}
