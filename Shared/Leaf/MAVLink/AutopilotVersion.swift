/// AUTOPILOT_VERSION (148): capabilities and versions, the answer to REQUEST_MESSAGE 148 (MAVSDK asks at connect).
public struct AutopilotVersion: MAVLinkMessage {
    public static let messageId: UInt32 = 148
    public static let crcExtra: UInt8 = 178
    public static let baseLength = 60
    public static let fullLength = 78

    /// MAV_PROTOCOL_CAPABILITY bits.
    public var capabilities: UInt64
    public var uid: UInt64 = 0
    /// Major.minor.patch.type, one byte each from the top.
    public var flightSwVersion: UInt32 = 0
    public var middlewareSwVersion: UInt32 = 0
    public var osSwVersion: UInt32 = 0
    public var boardVersion: UInt32 = 0
    public var vendorId: UInt16 = 0
    public var productId: UInt16 = 0
    public var flightCustomVersion: [UInt8] = Array(repeating: 0, count: 8)
    public var middlewareCustomVersion: [UInt8] = Array(repeating: 0, count: 8)
    public var osCustomVersion: [UInt8] = Array(repeating: 0, count: 8)
    // Extension.
    public var uid2: [UInt8] = Array(repeating: 0, count: 18)

    public init(capabilities: UInt64, flightSwVersion: UInt32 = 0, uid: UInt64 = 0) {
        self.capabilities = capabilities
        self.flightSwVersion = flightSwVersion
        self.uid = uid
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        capabilities = p.read()
        uid = p.read()
        flightSwVersion = p.read()
        middlewareSwVersion = p.read()
        osSwVersion = p.read()
        boardVersion = p.read()
        vendorId = p.read()
        productId = p.read()
        flightCustomVersion = p.array(UInt8.self, count: 8)
        middlewareCustomVersion = p.array(UInt8.self, count: 8)
        osCustomVersion = p.array(UInt8.self, count: 8)
        uid2 = p.array(UInt8.self, count: 18)
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(capabilities)
        p.write(uid)
        p.write(flightSwVersion)
        p.write(middlewareSwVersion)
        p.write(osSwVersion)
        p.write(boardVersion)
        p.write(vendorId)
        p.write(productId)
        p.array(flightCustomVersion, count: 8)
        p.array(middlewareCustomVersion, count: 8)
        p.array(osCustomVersion, count: 8)
        p.array(uid2, count: 18)
    }
}
