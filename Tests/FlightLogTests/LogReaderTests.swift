import Testing
@testable import FlightLog

struct LogReaderTests {
    /// A header and `count` records whose payloads contain every byte value, including the sync marker bytes.
    static func sampleRecords(_ count: Int) throws -> [LogRecord] {
        try (0..<count).map { index in
            var payload = (0..<(index * 7 % 40)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ index) }
            if index % 3 == 0 { payload += LogRecord.syncMarker }
            return try LogRecord(receiveTimeUs: 1_714_566_896_000_000 + Int64(index) * 20_000,
                                 topic: "quad/drone1/telemetry/\(index % 2 == 0 ? "drone" : "position")",
                                 payload: payload, retain: index % 5 == 0, qos: UInt8(index % 3))
        }
    }

    static func file(_ records: [LogRecord]) throws -> (bytes: [UInt8], offsets: [Int]) {
        var bytes = try LogFileHeader(createdUs: 1_714_566_896_000_000, note: "test").encoded()
        var offsets: [Int] = []
        for record in records {
            offsets.append(bytes.count)
            bytes += record.encoded()
        }
        return (bytes, offsets)
    }

    @Test(arguments: [0, 1, 2, 50])
    func roundTripIsLossless(count: Int) throws {
        let records = try Self.sampleRecords(count)
        let (bytes, offsets) = try Self.file(records)
        let reader = try LogReader(bytes: bytes)
        #expect(reader.header?.note == "test")
        #expect(reader.readAll() == LogReadResult(records: records))
        #expect(Array(reader) == zip(records, offsets).map { LogReadEvent.record($0, offset: $1) })
    }

    @Test func everyTruncationInsideTheLastRecordIsATornTail() throws {
        let records = try Self.sampleRecords(6)
        let (bytes, offsets) = try Self.file(records)
        let lastStart = try #require(offsets.last)
        for end in (lastStart + 1)..<bytes.count {
            let result = try LogReader(bytes: Array(bytes[0..<end])).readAll()
            #expect(result.records == Array(records.dropLast()), "truncated at \(end)")
            #expect(result.problems == [.tornTail(offset: lastStart, bytes: end - lastStart)], "truncated at \(end)")
        }
    }

    @Test func truncationAtARecordBoundaryIsClean() throws {
        let records = try Self.sampleRecords(6)
        let (bytes, offsets) = try Self.file(records)
        let result = try LogReader(bytes: Array(bytes[0..<offsets[4]])).readAll()
        #expect(result == LogReadResult(records: Array(records.prefix(4))))
    }

    @Test func flippedBytesInTheMiddleAreSkippedAndTheRestIsRead() throws {
        let records = try Self.sampleRecords(8)
        let (bytes, offsets) = try Self.file(records)
        // Every byte position of record 3, including its sync marker, length and CRC.
        for position in offsets[3]..<offsets[4] {
            var damaged = bytes
            damaged[position] ^= 0x5A
            let result = try LogReader(bytes: damaged).readAll()
            var expected = records
            expected.remove(at: 3)
            #expect(result.records == expected, "flipped byte \(position)")
            #expect(result.problems == [.corrupt(offset: offsets[3], skippedBytes: offsets[4] - offsets[3])],
                    "flipped byte \(position)")
        }
    }

    @Test func garbageBetweenRecordsIsSkipped() throws {
        let records = try Self.sampleRecords(4)
        let file = try Self.file(records)
        var bytes = file.bytes
        let offsets = file.offsets
        let garbage: [UInt8] = [0x00, 0xA5, 0x51, 0xFF, 0xA5, 0x51, 0x52, 0x5A, 0xFF, 0xFF, 0xFF, 0xFF, 0x13]
        bytes.insert(contentsOf: garbage, at: offsets[2])
        let result = try LogReader(bytes: bytes).readAll()
        #expect(result.records == records)
        #expect(result.problems == [.corrupt(offset: offsets[2], skippedBytes: garbage.count)])
    }

    @Test func corruptRecordFollowedByTornTailReportsBoth() throws {
        let records = try Self.sampleRecords(5)
        let (bytes, offsets) = try Self.file(records)
        var damaged = Array(bytes.dropLast(3))
        damaged[offsets[3] + 12] ^= 0xFF
        let result = try LogReader(bytes: damaged).readAll()
        #expect(result.records == Array(records.prefix(3)))
        #expect(result.problems == [
            .corrupt(offset: offsets[3], skippedBytes: offsets[4] - offsets[3]),
            .tornTail(offset: offsets[4], bytes: damaged.count - offsets[4]),
        ])
    }

    @Test func corruptLastRecordIsReportedAsCorrupt() throws {
        let records = try Self.sampleRecords(3)
        var (bytes, offsets) = try Self.file(records)
        bytes[offsets[2] + 10] ^= 0x01
        let result = try LogReader(bytes: bytes).readAll()
        #expect(result.records == Array(records.prefix(2)))
        #expect(result.problems == [.corrupt(offset: offsets[2], skippedBytes: bytes.count - offsets[2])])
    }

    @Test func zeroFilledTailIsCorruptNotFatal() throws {
        let records = try Self.sampleRecords(3)
        let (bytes, _) = try Self.file(records)
        let result = try LogReader(bytes: bytes + [UInt8](repeating: 0, count: 100)).readAll()
        #expect(result.records == records)
        #expect(result.problems == [.corrupt(offset: bytes.count, skippedBytes: 100)])
    }

    @Test func headerlessReadingStartsAtTheGivenOffset() throws {
        let records = try Self.sampleRecords(3)
        let (bytes, offsets) = try Self.file(records)
        let reader = LogReader(recordBytes: bytes, startOffset: offsets[1])
        #expect(reader.header == nil)
        #expect(reader.readAll() == LogReadResult(records: Array(records.dropFirst())))
    }

    @Test func damagedHeaderIsATypedError() throws {
        var (bytes, _) = try Self.file(try Self.sampleRecords(1))
        bytes[0] = 0
        #expect(throws: LogHeaderError.self) { try LogReader(bytes: bytes) }
    }
}
