/// SYS_STATUS (1): sensor health, battery voltage and remaining charge, link error counters.
public struct SysStatus: MAVLinkMessage {
    public static let messageId: UInt32 = 1
    public static let crcExtra: UInt8 = 124
    public static let baseLength = 31
    public static let fullLength = 43

    public var sensorsPresent: UInt32 = 0
    public var sensorsEnabled: UInt32 = 0
    public var sensorsHealth: UInt32 = 0
    public var loadPermille: UInt16 = 0
    /// UINT16_MAX = unknown.
    public var voltageBatteryMv: UInt16 = .max
    /// −1 = unknown.
    public var currentBatteryCa: Int16 = -1
    public var dropRateCommCentiPct: UInt16 = 0
    public var errorsComm: UInt16 = 0
    public var errorsCount: [UInt16] = [0, 0, 0, 0]
    /// −1 = unknown.
    public var batteryRemainingPct: Int8 = -1
    // Extensions.
    public var sensorsPresentExtended: UInt32 = 0
    public var sensorsEnabledExtended: UInt32 = 0
    public var sensorsHealthExtended: UInt32 = 0

    public init(voltageBatteryMv: UInt16 = .max, batteryRemainingPct: Int8 = -1) {
        self.voltageBatteryMv = voltageBatteryMv
        self.batteryRemainingPct = batteryRemainingPct
    }

    public init(reading p: inout MAVLinkPayloadReader) {
        sensorsPresent = p.read()
        sensorsEnabled = p.read()
        sensorsHealth = p.read()
        loadPermille = p.read()
        voltageBatteryMv = p.read()
        currentBatteryCa = p.read()
        dropRateCommCentiPct = p.read()
        errorsComm = p.read()
        errorsCount = p.array(UInt16.self, count: 4)
        batteryRemainingPct = p.read()
        sensorsPresentExtended = p.read()
        sensorsEnabledExtended = p.read()
        sensorsHealthExtended = p.read()
    }

    public func write(to p: inout MAVLinkPayloadWriter) {
        p.write(sensorsPresent)
        p.write(sensorsEnabled)
        p.write(sensorsHealth)
        p.write(loadPermille)
        p.write(voltageBatteryMv)
        p.write(currentBatteryCa)
        p.write(dropRateCommCentiPct)
        p.write(errorsComm)
        p.array(errorsCount, count: 4)
        p.write(batteryRemainingPct)
        p.write(sensorsPresentExtended)
        p.write(sensorsEnabledExtended)
        p.write(sensorsHealthExtended)
    }
}
