/// One navdata datagram (UDP 5554, drone → client): header, options, checksum.
public struct NavdataPacket: Sendable, Equatable {
    /// Header magic, bytes `88 77 66 55`.
    public static let magic: UInt32 = 0x5566_7788
    /// Also accepted when decoding, as node-ar-drone does.
    public static let alternateMagic: UInt32 = 0x5566_7789
    /// NAVDATA_MAX_SIZE.
    public static let maxBytes = 4096
    static let headerBytes = 16
    static let checksumOptionBytes = 8
    /// Header plus checksum option: a bootstrap packet.
    public static let minBytes = headerBytes + checksumOptionBytes

    public var state: DroneStateFlags
    /// +1 per packet; restarts low after a drone reboot or navdata restart.
    public var sequence: UInt32
    /// vision_defined.
    public var visionFlag: UInt32
    /// In wire order, without the checksum option.
    public var options: [NavdataOption]

    public init(state: DroneStateFlags, sequence: UInt32, visionFlag: UInt32 = 0, options: [NavdataOption] = []) {
        self.state = state
        self.sequence = sequence
        self.visionFlag = visionFlag
        self.options = options
    }

    /// The first demo option, if any. Packets sent while a config is applied may carry none: always check.
    public var demo: NavdataDemo? {
        for case .demo(let demo) in options { return demo }
        return nil
    }

    public var time: NavdataTime? {
        for case .time(let time) in options { return time }
        return nil
    }

    public var magneto: NavdataMagneto? {
        for case .magneto(let magneto) in options { return magneto }
        return nil
    }

    public var gps: NavdataGPS? {
        for case .gps(let gps) in options { return gps }
        return nil
    }

    public var wifi: NavdataWifi? {
        for case .wifi(let wifi) in options { return wifi }
        return nil
    }

    /// Plain u32 sum of the bytes (the navdata checksum over everything before the checksum option).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 &+ UInt32($1) }
    }
}
