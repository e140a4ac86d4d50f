/// One option of a navdata datagram. Options not decoded here keep their payload, so encoding a decoded
/// packet reproduces them.
public enum NavdataOption: Sendable, Equatable {
    case demo(NavdataDemo)
    case time(NavdataTime)
    case magneto(NavdataMagneto)
    case gps(NavdataGPS)
    case wifi(NavdataWifi)
    /// Any other option: vision_detect (16), zimmu_3000 (27 with size 12), the undocumented 28/29, …
    /// `payload` is the bytes after the 4-byte tag/size header. Tag 0xFFFF (checksum) is never kept here.
    case raw(tag: UInt16, payload: [UInt8])

    /// A zero-filled vision_detect option of the size the firmware sends (328 bytes with its header), part
    /// of the default demo-mode datagram.
    public static let emptyVisionDetect = NavdataOption.raw(
        tag: NavdataTag.visionDetect, payload: Array(repeating: 0, count: NavdataTag.visionDetectSize - 4))

    public var tag: UInt16 {
        switch self {
        case .demo: NavdataTag.demo
        case .time: NavdataTag.time
        case .magneto: NavdataTag.magneto
        case .gps: NavdataTag.gps
        case .wifi: NavdataTag.wifi
        case .raw(let tag, _): tag
        }
    }
}

/// Option tags (SDK `navdata_keys.h`) used here.
public enum NavdataTag {
    public static let demo: UInt16 = 0
    public static let time: UInt16 = 1
    public static let visionDetect: UInt16 = 16
    public static let magneto: UInt16 = 22
    public static let wifi: UInt16 = 26
    /// zimmu_3000 in the SDK (size 12); GPS (size 216) on firmware ≥ 2.4.1 with the Flight Recorder.
    public static let gps: UInt16 = 27
    public static let checksum: UInt16 = 0xFFFF

    /// vision_detect size with header, as sent by the firmware.
    public static let visionDetectSize = 328
}

/// A decodable option's fixed layout. Sizes include the 4-byte tag/size header.
protocol NavdataOptionLayout {
    static var tag: UInt16 { get }
    /// What the firmware sends and what the encoder writes.
    static var wireSize: Int { get }
    /// The fewest bytes the decoder needs; anything beyond is ignored (options may grow at the end).
    static var minimumSize: Int { get }
    /// Reads the payload (after the header).
    init(payload: inout ByteReader)
    /// Writes exactly `wireSize - 4` payload bytes.
    func writePayload(to writer: inout ByteWriter)
}

extension NavdataOptionLayout {
    static var minimumSize: Int { wireSize }
}

/// Wire-unit to SI conversions that cannot trap on odd values.
enum NavdataUnits {
    /// `value` rounded into Int32; NaN becomes 0, out-of-range values clamp.
    static func clampedInt32(_ value: Double) -> Int32 {
        guard value.isFinite else { return value.isNaN ? 0 : (value > 0 ? .max : .min) }
        let rounded = value.rounded()
        if rounded >= Double(Int32.max) { return .max }
        if rounded <= Double(Int32.min) { return .min }
        return Int32(rounded)
    }
}
