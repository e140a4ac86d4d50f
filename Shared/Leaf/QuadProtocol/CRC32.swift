/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, as zlib's `crc32` and `cksum -a crc32b`), table-driven:
/// the airspace's checksum, which a user may recompute with common tools. Known answer:
/// `checksum("123456789".utf8) == 0xCBF4_3926`.
public enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 {
            crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
        }
        return crc
    }

    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = ~UInt32(0)
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return ~crc
    }

    /// `0x1a2b3c4d` as printed by `airspace show` and the logs: eight lower-case hex digits.
    public static func text(_ checksum: UInt32) -> String {
        let digits = String(checksum, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
