extension NavdataPacket {
    /// Decodes and verifies one datagram.
    ///
    /// Walks the options by their size field (which includes the 4-byte header), so unknown tags (28, 29, …)
    /// are skipped; stops at the checksum option (tag 0xFFFF, size 8), which must be last and must equal the
    /// byte sum of everything before it. A packet with no checksum option is rejected (`missingChecksum`).
    public static func decode(_ bytes: [UInt8]) throws(NavdataError) -> NavdataPacket {
        guard bytes.count >= minBytes else { throw .tooShort(byteCount: bytes.count, minimum: minBytes) }
        guard bytes.count <= maxBytes else { throw .tooLong(byteCount: bytes.count, maximum: maxBytes) }
        var header = ByteReader(bytes[...])
        let magic = header.u32()
        guard magic == Self.magic || magic == alternateMagic else { throw .badMagic(got: magic) }
        var packet = NavdataPacket(state: DroneStateFlags(rawValue: header.u32()), sequence: header.u32(),
                                   visionFlag: header.u32())

        var offset = headerBytes
        while offset < bytes.count {
            let remaining = bytes.count - offset
            guard remaining >= 4 else { throw .truncatedOptionHeader(offset: offset, remaining: remaining) }
            var optionHeader = ByteReader(bytes[offset..<offset + 4])
            let tag = optionHeader.u16()
            let size = optionHeader.u16()
            guard size >= 4 else { throw .optionTooSmall(tag: tag, size: size) }
            guard Int(size) <= remaining else { throw .optionOverruns(tag: tag, size: size, remaining: remaining) }
            let option = bytes[offset..<offset + Int(size)]
            if tag == NavdataTag.checksum {
                try verifyChecksum(option, in: bytes)
                return packet
            }
            packet.options.append(try decodeOption(tag: tag, option: option))
            offset += Int(size)
        }
        throw .missingChecksum
    }

    /// The SDK sums `[0, count − 8)`, so the checksum option has to be exactly the last 8 bytes.
    private static func verifyChecksum(_ option: ArraySlice<UInt8>, in bytes: [UInt8]) throws(NavdataError) {
        guard option.count == checksumOptionBytes else { throw .badChecksumOptionSize(size: UInt16(option.count)) }
        guard option.endIndex == bytes.count else { throw .bytesAfterChecksum(count: bytes.count - option.endIndex) }
        var reader = ByteReader(option.dropFirst(4))
        let expected = reader.u32()
        let computed = checksum(bytes[..<option.startIndex])
        guard expected == computed else { throw .checksumMismatch(expected: expected, computed: computed) }
    }

    /// `option` includes the 4-byte header and has exactly the declared size.
    private static func decodeOption(tag: UInt16, option: ArraySlice<UInt8>) throws(NavdataError) -> NavdataOption {
        switch tag {
        case NavdataTag.demo: .demo(try decode(NavdataDemo.self, option))
        case NavdataTag.time: .time(try decode(NavdataTime.self, option))
        case NavdataTag.magneto: .magneto(try decode(NavdataMagneto.self, option))
        case NavdataTag.wifi: .wifi(try decode(NavdataWifi.self, option))
        case NavdataTag.gps where option.count >= NavdataGPS.wireSize: .gps(try decode(NavdataGPS.self, option))
        default: .raw(tag: tag, payload: Array(option.dropFirst(4)))
        }
    }

    private static func decode<Layout: NavdataOptionLayout>(_ type: Layout.Type, _ option: ArraySlice<UInt8>)
        throws(NavdataError) -> Layout
    {
        guard option.count >= Layout.minimumSize else {
            throw .optionShorterThanLayout(tag: Layout.tag, size: UInt16(option.count), required: Layout.minimumSize)
        }
        var reader = ByteReader(option.dropFirst(4))
        return Layout(payload: &reader)
    }
}
