extension NavdataPacket {
    /// The datagram as the drone sends it: magic 0x55667788, header, each option at the size the firmware uses
    /// (demo 148, time 8, magneto 83, GPS 216, wifi 8, raw = 4 + payload), then the checksum option.
    ///
    /// `.raw` options with tag 0xFFFF are skipped (the checksum is always computed). The caller keeps the total
    /// within `maxBytes` and raw payloads under 65 532 bytes; beyond that the output would not decode.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 512)
        writer.u32(Self.magic)
        writer.u32(state.rawValue)
        writer.u32(sequence)
        writer.u32(visionFlag)
        for option in options {
            switch option {
            case .demo(let demo): Self.write(demo, to: &writer)
            case .time(let time): Self.write(time, to: &writer)
            case .magneto(let magneto): Self.write(magneto, to: &writer)
            case .gps(let gps): Self.write(gps, to: &writer)
            case .wifi(let wifi): Self.write(wifi, to: &writer)
            case .raw(let tag, let payload):
                guard tag != NavdataTag.checksum else { continue }
                writer.u16(tag)
                writer.u16(UInt16(truncatingIfNeeded: payload.count + 4))
                writer.append(payload)
            }
        }
        let checksum = Self.checksum(writer.bytes[...])
        writer.u16(NavdataTag.checksum)
        writer.u16(UInt16(Self.checksumOptionBytes))
        writer.u32(checksum)
        return writer.bytes
    }

    private static func write<Layout: NavdataOptionLayout>(_ option: Layout, to writer: inout ByteWriter) {
        writer.u16(Layout.tag)
        writer.u16(UInt16(Layout.wireSize))
        option.writePayload(to: &writer)
    }
}
