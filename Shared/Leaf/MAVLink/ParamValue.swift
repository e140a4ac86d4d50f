/// A parameter's name on the wire: up to 16 ASCII bytes, NUL-padded (no terminator when all 16 are used).
public enum MAVParamName {
    public static let byteCount = 16

    public static func bytes(_ name: String) -> [UInt8] { Array(name.utf8.prefix(byteCount)) }

    public static func name(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != 0 }.filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
    }
}

/// PARAM_REQUEST_READ (20): ask for one parameter by name (`paramIndex` −1) or by index.
public struct ParamRequestRead: MAVLinkMessage {
    public static let messageId: UInt32 = 20
    public static let crcExtra: UInt8 = 214
    public static let fullLength = 20

    public var paramIndex: Int16
    public var targetSystem: UInt8
    public var targetComponent: UInt8
    public var paramId: String

    public init(paramId: String, targetSystem: UInt8, targetComponent: UInt8, paramIndex: Int16 = -1) {
        self.paramId = paramId
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
        self.paramIndex = paramIndex
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        paramIndex = p.read()
        targetSystem = p.read()
        targetComponent = p.read()
        paramId = MAVParamName.name(p.array(UInt8.self, count: MAVParamName.byteCount))
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(paramIndex)
        p.write(targetSystem)
        p.write(targetComponent)
        p.array(MAVParamName.bytes(paramId), count: MAVParamName.byteCount)
    }
}

/// PARAM_VALUE (22): one parameter's value, the answer to a read, a list request or a set.
public struct ParamValue: MAVLinkMessage {
    public static let messageId: UInt32 = 22
    public static let crcExtra: UInt8 = 220
    public static let fullLength = 25

    /// The value as the float the wire carries (an integer parameter's bytes, as PX4 sends them, or its value
    /// cast, as ArduPilot does: see `integerValue`).
    public var paramValue: Float
    public var paramCount: UInt16
    public var paramIndex: UInt16
    public var paramId: String
    /// MAV_PARAM_TYPE: 6 = INT32, 9 = REAL32, …
    public var paramType: UInt8

    public init(paramId: String, paramValue: Float, paramType: UInt8, paramCount: UInt16, paramIndex: UInt16) {
        self.paramId = paramId
        self.paramValue = paramValue
        self.paramType = paramType
        self.paramCount = paramCount
        self.paramIndex = paramIndex
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        paramValue = p.float()
        paramCount = p.read()
        paramIndex = p.read()
        paramId = MAVParamName.name(p.array(UInt8.self, count: MAVParamName.byteCount))
        paramType = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.float(paramValue)
        p.write(paramCount)
        p.write(paramIndex)
        p.array(MAVParamName.bytes(paramId), count: MAVParamName.byteCount)
        p.write(paramType)
    }

    public static let typeInt32: UInt8 = 6
    public static let typeReal32: UInt8 = 9

    /// The value as a number, whichever way the autopilot packed it: PX4 puts an INT32's bits in the float
    /// (bytewise), ArduPilot casts it. `bytewise`: the sender is PX4.
    public func numericValue(bytewise: Bool) -> Double {
        if paramType == Self.typeInt32, bytewise { return Double(Int32(bitPattern: paramValue.bitPattern)) }
        return Double(paramValue)
    }
}

/// PARAM_SET (23): set one parameter; the autopilot answers with PARAM_VALUE.
public struct ParamSet: MAVLinkMessage {
    public static let messageId: UInt32 = 23
    public static let crcExtra: UInt8 = 168
    public static let fullLength = 23

    public var paramValue: Float
    public var targetSystem: UInt8
    public var targetComponent: UInt8
    public var paramId: String
    public var paramType: UInt8

    public init(paramId: String, paramValue: Float, paramType: UInt8, targetSystem: UInt8, targetComponent: UInt8) {
        self.paramId = paramId
        self.paramValue = paramValue
        self.paramType = paramType
        self.targetSystem = targetSystem
        self.targetComponent = targetComponent
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        paramValue = p.float()
        targetSystem = p.read()
        targetComponent = p.read()
        paramId = MAVParamName.name(p.array(UInt8.self, count: MAVParamName.byteCount))
        paramType = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.float(paramValue)
        p.write(targetSystem)
        p.write(targetComponent)
        p.array(MAVParamName.bytes(paramId), count: MAVParamName.byteCount)
        p.write(paramType)
    }
}
