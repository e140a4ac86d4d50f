import Checksums
import Testing
@testable import FlightLog

struct CRC32CTests {
    @Test func knownAnswerForCheckString() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }

    @Test func emptyInputIsZero() {
        #expect(CRC32C.checksum([UInt8]()) == 0)
    }

    /// RFC 3720 (iSCSI) B.4 test vectors.
    @Test(arguments: [
        ([UInt8](repeating: 0x00, count: 32), UInt32(0x8A91_36AA)),
        ([UInt8](repeating: 0xFF, count: 32), UInt32(0x62A8_AB43)),
        ((0..<32).map { UInt8($0) }, UInt32(0x46DD_794E)),
    ])
    func iscsiVectors(bytes: [UInt8], expected: UInt32) {
        #expect(CRC32C.checksum(bytes) == expected)
    }

    @Test func checksumInPiecesEqualsWhole() {
        let bytes = Array("The quick brown fox jumps over the lazy dog".utf8)
        let first = CRC32C.checksum(bytes[0..<10])
        #expect(CRC32C.checksum(bytes[10...], continuing: first) == CRC32C.checksum(bytes))
    }
}
