/// The wifi option (tag 26, 8 bytes). Read as u32 like the SDK and objc.io; node-ar-drone reads the same bits
/// as a float and reports `1 − value` (sources conflict), so `linkQualityAsFloat` offers that view.
public struct NavdataWifi: Sendable, Equatable {
    public var linkQuality: UInt32

    public init(linkQuality: UInt32) {
        self.linkQuality = linkQuality
    }

    public var linkQualityAsFloat: Float { Float(bitPattern: linkQuality) }
}

extension NavdataWifi: NavdataOptionLayout {
    static let tag = NavdataTag.wifi
    static let wireSize = 8

    init(payload reader: inout ByteReader) {
        linkQuality = reader.u32()
    }

    func writePayload(to writer: inout ByteWriter) {
        writer.u32(linkQuality)
    }
}
