import Testing
@testable import FlightLog

struct LogFileHeaderTests {
    @Test func roundTrip() throws {
        let header = try LogFileHeader(createdUs: 1_714_566_896_000_000,
            note: "drone1 telemetry-logger 0.1 — ünïcode")
        let bytes = header.encoded()
        #expect(bytes.count == header.encodedByteCount)
        let decoded = try LogFileHeader.decode(bytes + [1, 2, 3])
        #expect(decoded.header == header)
        #expect(decoded.recordsOffset == bytes.count)
    }

    @Test func rejectsBadMagic() throws {
        var bytes = try LogFileHeader(createdUs: 0).encoded()
        bytes[1] = 0x00
        #expect(throws: LogHeaderError.badMagic(found: [0x89, 0x00, 0x4C, 0x4F, 0x47, 0x0D, 0x0A, 0x1A])) {
            try LogFileHeader.decode(bytes)
        }
    }

    @Test func rejectsUnknownVersion() throws {
        var bytes = try LogFileHeader(createdUs: 0).encoded()
        bytes[9] = 2
        #expect(throws: LogHeaderError.unsupportedVersion(expected: 1, found: 2)) { try LogFileHeader.decode(bytes) }
    }

    @Test func rejectsCorruptedNote() throws {
        var bytes = try LogFileHeader(createdUs: 0, note: "abc").encoded()
        bytes[21] ^= 0x01
        #expect {
            try LogFileHeader.decode(bytes)
        } throws: { error in
            if case LogHeaderError.crcMismatch = error { return true }
            return false
        }
    }

    @Test(arguments: [0, 3, 8, 19, 22])
    func rejectsTruncatedHeader(length: Int) throws {
        let bytes = try LogFileHeader(createdUs: 0, note: "abc").encoded()
        #expect(throws: LogHeaderError.self) { try LogFileHeader.decode(Array(bytes.prefix(length))) }
    }

    @Test func rejectsOverlongNote() {
        let note = String(repeating: "x", count: 70_000)
        #expect(throws: LogHeaderError.noteTooLong(bytes: 70_000, maxBytes: 65_535)) {
            try LogFileHeader(createdUs: 0, note: note)
        }
    }
}
