/// Reflected, table-driven CRC-32 with pre- and post-inversion, one implementation for each polynomial we use:
/// `.castagnoli` (CRC-32C: the flight log's records) and `.ieee` (the CRC-32 of zlib and Ethernet: the mission
/// plan's checksum, which ground tools in other languages recompute with their standard library).
public struct CRC32: Sendable {
    /// CRC-32C, reflected polynomial 0x82F63B78. Known answer: `checksum("123456789".utf8) == 0xE306_9283`.
    public static let castagnoli = CRC32(reflectedPolynomial: 0x82F6_3B78)
    /// CRC-32 (IEEE 802.3), reflected polynomial 0xEDB88320. Known answer: `checksum("123456789".utf8) == 0xCBF4_3926`.
    public static let ieee = CRC32(reflectedPolynomial: 0xEDB8_8320)

    /// One entry per byte value: the CRC of that byte alone, without pre/post inversion.
    let table: [UInt32]

    init(reflectedPolynomial: UInt32) {
        table = (0..<256).map { index in
            var crc = UInt32(index)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ reflectedPolynomial : crc >> 1
            }
            return crc
        }
    }

    /// The CRC of `bytes`. Pass a previous result as `continuing` to checksum data in pieces.
    public func checksum(_ bytes: some Sequence<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
        var crc = ~previous
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return ~crc
    }
}

/// CRC-32C (Castagnoli), the flight log's record checksum. Chosen there over IEEE CRC-32 because it detects more
/// error patterns at the record sizes we write and is the checksum iSCSI, ext4 and Btrfs use.
public enum CRC32C {
    public static func checksum(_ bytes: some Sequence<UInt8>, continuing previous: UInt32 = 0) -> UInt32 {
        CRC32.castagnoli.checksum(bytes, continuing: previous)
    }
}

extension CRC32 {
    /// `0x1a2b3c4d` as the ground tools and the logs print a checksum: eight lower-case hex digits.
    public static func text(_ checksum: UInt32) -> String {
        let digits = String(checksum, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
