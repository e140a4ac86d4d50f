/// BATTERY_STATUS (147): per-battery detail; we read `batteryRemainingPct` when SYS_STATUS has none.
public struct BatteryStatus: MAVLinkMessage {
    public static let messageId: UInt32 = 147
    public static let crcExtra: UInt8 = 154
    public static let baseLength = 36
    public static let fullLength = 54

    public var currentConsumedMah: Int32 = -1
    public var energyConsumedHj: Int32 = -1
    /// INT16_MAX = unknown.
    public var temperatureCdegC: Int16 = .max
    /// Cell voltages; UINT16_MAX = no such cell.
    public var voltagesMv: [UInt16] = Array(repeating: .max, count: 10)
    public var currentBatteryCa: Int16 = -1
    public var id: UInt8 = 0
    public var batteryFunction: UInt8 = 0
    public var type: UInt8 = 0
    /// −1 = unknown.
    public var batteryRemainingPct: Int8 = -1
    // Extensions.
    public var timeRemainingS: Int32 = 0
    public var chargeState: UInt8 = 0
    public var voltagesExtMv: [UInt16] = [0, 0, 0, 0]
    public var mode: UInt8 = 0
    public var faultBitmask: UInt32 = 0

    public init(batteryRemainingPct: Int8 = -1) {
        self.batteryRemainingPct = batteryRemainingPct
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        currentConsumedMah = p.read()
        energyConsumedHj = p.read()
        temperatureCdegC = p.read()
        voltagesMv = p.array(UInt16.self, count: 10)
        currentBatteryCa = p.read()
        id = p.read()
        batteryFunction = p.read()
        type = p.read()
        batteryRemainingPct = p.read()
        timeRemainingS = p.read()
        chargeState = p.read()
        voltagesExtMv = p.array(UInt16.self, count: 4)
        mode = p.read()
        faultBitmask = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(currentConsumedMah)
        p.write(energyConsumedHj)
        p.write(temperatureCdegC)
        p.array(voltagesMv, count: 10)
        p.write(currentBatteryCa)
        p.write(id)
        p.write(batteryFunction)
        p.write(type)
        p.write(batteryRemainingPct)
        p.write(timeRemainingS)
        p.write(chargeState)
        p.array(voltagesExtMv, count: 4)
        p.write(mode)
        p.write(faultBitmask)
    }
}
