import Checksums

/// The layout of the controller's binary state files (the airspace, the mission): a 4-byte magic, the CRC-32
/// (IEEE, u32 little-endian) of what follows, then the payload. A file that fails either check is never taken.
enum ChecksummedFile {
    /// Why a stored file was not taken.
    enum LoadError: Error, CustomStringConvertible {
        case damaged(String)
        var description: String { if case .damaged(let why) = self { why } else { "" } }
    }

    static func wrap(_ payload: [UInt8], magic: [UInt8]) -> [UInt8] {
        var bytes = magic
        withUnsafeBytes(of: CRC32.ieee.checksum(payload).littleEndian) { bytes.append(contentsOf: $0) }
        return bytes + payload
    }

    static func unwrap(_ bytes: [UInt8], magic: [UInt8]) throws(LoadError) -> [UInt8] {
        let name = String(decoding: magic, as: UTF8.self)
        guard bytes.count > 8, Array(bytes.prefix(4)) == magic else { throw .damaged("no \(name) header") }
        let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[4 + $1]) << (8 * $1) }
        let payload = Array(bytes.dropFirst(8))
        let actual = CRC32.ieee.checksum(payload)
        guard stored == actual else {
            throw .damaged("checksum mismatch: stored \(CRC32.text(stored)), content \(CRC32.text(actual))")
        }
        return payload
    }
}
