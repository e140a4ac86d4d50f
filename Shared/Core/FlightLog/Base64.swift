/// RFC 4648 base64 with padding (for undecodable payloads in JSON Lines).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var group: UInt32 = 0
            for (position, byte) in chunk.enumerated() { group |= UInt32(byte) << (16 - 8 * position) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[Int((group >> (18 - 6 * position)) & 0x3F)]
                    : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
