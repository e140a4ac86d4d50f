import Testing
@testable import FlightLog

@Suite("Reading a whole log file: truthful sentences, no enum dumps")
struct LogContentsTests {
    @Test("text that is no flight log: 'not a .qlog flight log (bad magic)'",
          arguments: ["lat,lon\n52.5,13.4\n", "hi\n", "{\"not\":\"a log\"}"])
    func notAFlightLog(text: String) {
        #expect(throws: LogContentsError.notAFlightLog) { try LogContents(bytes: Array(text.utf8)) }
        #expect("\(LogContentsError.notAFlightLog)" == "not a .qlog flight log (bad magic)")
    }

    @Test("an empty file is an empty log (created, killed before the first write), with its problem said")
    func emptyFile() throws {
        let contents = try LogContents(bytes: [])
        #expect(contents.records.isEmpty)
        #expect(contents.problemLines(path: "a.qlog") == [
            "a.qlog: damaged file header: the file ends after 0 bytes, inside the header (24 needed); "
                + "0 records found by scanning",
        ])
    }

    @Test("overwritten magic but intact records: read by scanning, the warning in words")
    func damagedMagic() throws {
        let records = try LogReaderTests.sampleRecords(3)
        var bytes = try LogReaderTests.file(records).bytes
        bytes[1] = 0
        let contents = try LogContents(bytes: bytes)
        #expect(contents.records == records)
        let lines = contents.problemLines(path: "f.qlog")
        #expect(lines.first == "f.qlog: damaged file header: bad magic: starts with 89 00 4C 4F 47 0D 0A 1A "
                    + "instead of 89 51 4C 4F 47 0D 0A 1A; 3 records found by scanning")
        // The header's bytes themselves are the skipped range the scan reports next.
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("f.qlog: corrupt range at offset 0:") }, "\(lines)")
    }

    @Test("every header and record error reads as a sentence, not a Swift enum")
    func sentences() {
        let texts = [
            "\(LogHeaderError.noteTooLong(bytes: 70000, maxBytes: 65535))",
            "\(LogHeaderError.unsupportedVersion(expected: 1, found: 9))",
            "\(LogHeaderError.crcMismatch(stored: 0xAB, computed: 0x1234_5678))",
            "\(LogHeaderError.noteNotUTF8)",
            "\(LogRecordError.topicTooLong(bytes: 70000, maxBytes: 65535))",
            "\(LogRecordError.payloadTooLong(bytes: 300_000_000, maxBytes: 268_435_455))",
            "\(LogRecordError.invalidQoS(3))",
        ]
        #expect(texts[2] == "header checksum mismatch: stored 0x000000AB, computed 0x12345678")
        #expect(texts[1] == "format version 9; this reader knows version 1")
        for text in texts {
            #expect(text.contains(" ") && !text.contains("("), "\(text)")
        }
    }
}
