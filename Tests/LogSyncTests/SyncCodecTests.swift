import Clocks
import FlightLog
import LogSync
import QuadProtocol
import Testing

struct SyncCodecTests {
    typealias F = SyncFixtures

    static let request = SyncRequest(id: 7, requester: "ground-1", ranges: [
        SyncRequest.Range(path: "telemetry/drone", first: 4, last: 8, notBeforeUs: 10, notAfterUs: 20),
        SyncRequest.Range(path: "telemetry/position", first: 1, last: 1, notBeforeUs: -5, notAfterUs: -5),
    ])

    @Test("a request round-trips; its layout is the documented one")
    func requestRoundTrip() throws {
        let bytes = try Self.request.encoded()
        #expect(Array(bytes[0..<5]) == [0xFF, 0x4C, 0x53, 0x51, 1])
        #expect(Array(bytes[5..<9]) == [0, 0, 0, 7])
        #expect(bytes[9] == 8)
        #expect(Array(bytes[18..<20]) == [0, 2])
        #expect(bytes.count == 20 + (1 + 15 + 24) + (1 + 18 + 24))
        #expect(try SyncRequest(decoding: bytes) == Self.request)
    }

    @Test("hostile requests are refused with a typed error",
          arguments: [
            ([0xFF, 0x51, 1, 1], SyncWireError.badMagic(expected: SyncRequest.magic, got: [0xFF, 0x51, 1, 1])),
            ([0xFF, 0x4C, 0x53], SyncWireError.badMagic(expected: SyncRequest.magic, got: [0xFF, 0x4C, 0x53])),
            ([0xFF, 0x4C, 0x53, 0x51, 2], SyncWireError.unsupportedVersion(expected: 1, got: 2)),
            ([0xFF, 0x4C, 0x53, 0x51, 1, 0, 0], SyncWireError.truncated(neededBytes: 9, gotBytes: 7)),
          ] as [([UInt8], SyncWireError)])
    func badRequestFraming(bytes: [UInt8], error: SyncWireError) {
        #expect(throws: error) { try SyncRequest(decoding: bytes) }
    }

    @Test("requests outside the limits: no ranges, too many, a non-telemetry path, an empty range, a bad requester")
    func badRequestContent() throws {
        func bytes(_ ranges: [SyncRequest.Range], requester: String = "ground") -> [UInt8] {
            // Encoded by hand: encoded() itself refuses these.
            var out: [UInt8] = SyncRequest.magic + [1, 0, 0, 0, 1, UInt8(requester.utf8.count)] + Array(requester.utf8)
            out += [UInt8(ranges.count >> 8), UInt8(ranges.count & 0xFF)]
            for r in ranges {
                out += [UInt8(r.path.utf8.count)] + Array(r.path.utf8)
                out += withUnsafeBytes(of: r.first.bigEndian, Array.init)
                    + withUnsafeBytes(of: r.last.bigEndian, Array.init)
                out += withUnsafeBytes(of: r.notBeforeUs.bigEndian, Array.init)
                    + withUnsafeBytes(of: r.notAfterUs.bigEndian, Array.init)
            }
            return out
        }
        let good = SyncRequest.Range(path: "telemetry/drone", first: 1, last: 2, notBeforeUs: 0, notAfterUs: 1)
        #expect(try SyncRequest(decoding: bytes([good])).ranges == [good])
        #expect(throws: SyncWireError.outOfRange(field: "range count", expected: "1…64", got: 0)) {
            try SyncRequest(decoding: bytes([]))
        }
        #expect(throws: SyncWireError.outOfRange(field: "range count", expected: "1…64", got: 65)) {
            try SyncRequest(decoding: bytes(Array(repeating: good, count: 65)))
        }
        for path in ["flight/command", "telemetry/#", "telemetry/a/b", "command", "telemetry/"] {
            var bad = good
            bad.path = path
            #expect(throws: SyncWireError.notSyncable(path: path)) { try SyncRequest(decoding: bytes([bad])) }
        }
        var reversed = good
        (reversed.first, reversed.last) = (5, 4)
        #expect(throws: SyncWireError.emptyRange(
            path: "telemetry/drone")) { try SyncRequest(decoding: bytes([reversed])) }
        var zero = good
        zero.first = 0
        #expect(throws: SyncWireError.emptyRange(path: "telemetry/drone")) { try SyncRequest(decoding: bytes([zero])) }
        #expect(
            throws: SyncWireError.invalidRequester("a/b")) {
                try SyncRequest(decoding: bytes([good], requester: "a/b"))
            }
        #expect(throws: SyncWireError.trailingBytes(1)) { try SyncRequest(decoding: bytes([good]) + [0]) }
        #expect(throws: SyncWireError.invalidRequester("+")) {
            try SyncRequest(id: 1, requester: "+", ranges: [good]).encoded()
        }
    }

    @Test("a response round-trips with its records; damaged records and bad framing are refused")
    func responseRoundTrip() throws {
        let records = [F.state(4), F.state(5)]
        let response = SyncResponse(requestId: 9, status: .truncated, chunkIndex: 1, chunkCount: 3, records: records)
        let bytes = response.encoded()
        #expect(Array(bytes[0..<5]) == [0xFF, 0x4C, 0x53, 0x52, 1])
        #expect(try SyncResponse(decoding: bytes) == response)

        var flipped = bytes
        flipped[flipped.count - 1] ^= 0xFF  // last record's CRC
        #expect(throws: SyncWireError.damagedRecords(expected: 2, got: 1)) { try SyncResponse(decoding: flipped) }
        var overCounted = bytes
        overCounted[15] = 3
        #expect(throws: SyncWireError.damagedRecords(expected: 3, got: 2)) { try SyncResponse(decoding: overCounted) }
        var badIndex = bytes
        badIndex[11] = 3  // index 3 of 3
        #expect(throws: SyncWireError.self) { try SyncResponse(decoding: badIndex) }
        var badStatus = bytes
        badStatus[9] = 7
        #expect(throws: SyncWireError.invalidValue(field: "status", got: 7)) { try SyncResponse(decoding: badStatus) }
        #expect(throws: SyncWireError.self) { try SyncResponse(decoding: Array(bytes.prefix(17))) }
        let refusal = SyncResponse.refusal(requestId: 3, reason: String(repeating: "é", count: 400))
        #expect(refusal.note.utf8.count <= SyncResponse.maxNoteBytes)
        #expect(try SyncResponse(decoding: refusal.encoded()) == refusal)
    }

    @Test("the board answers exactly the requested records, deduplicated, chunked, truncated past its cap")
    func answer() throws {
        let other = DroneID(rawValue: "drone2") ?? .default
        let request = SyncRequest(id: 5, requester: "g", ranges: [
            SyncRequest.Range(path: "telemetry/drone", first: 4, last: 8, notBeforeUs: F.senderTimeUs(3),
                              notAfterUs: F.senderTimeUs(9)),
        ])
        var answer = SyncAnswer(request: request, drone: F.drone,
                                limits: .init(maxRecordsPerChunk: 2, maxChunkBytes: 1, maxRecords: 100))
        let board = (1...10).map { F.state($0) }
        // A restarted publisher's 5 (outside the window), a duplicate, another drone, another topic.
        let noise = [F.state(5, timestampUs: F.t0 - 1), F.state(6), F.state(6,
            topic: Topics.droneState.topic(for: other)),
                     F.state(6, topic: F.positionTopic)]
        for record in board + noise { answer.offer(record) }
        let chunks = answer.responses()
        #expect(chunks.flatMap(\.records) == (4...8).map { F.state($0) })
        #expect(chunks.map(\.chunkIndex) == [0, 1, 2])
        #expect(chunks.allSatisfy { $0.chunkCount == 3 && $0.status == .complete && $0.requestId == 5 })

        var capped = SyncAnswer(request: request, drone: F.drone, limits: .init(maxRecordsPerChunk: 10, maxRecords: 2))
        for record in board { capped.offer(record) }
        #expect(capped.responses().map(\.status) == [.truncated])
        #expect(capped.responses().flatMap(\.records).count == 2)

        let nothing = SyncAnswer(request: request, drone: other)
        #expect(nothing.responses() == [SyncResponse(requestId: 5, status: .complete)])
    }

    @Test("an answer reads only the drone's log files written to since the window began, newest first")
    func archiveCandidates() {
        func at(_ s: Int64) -> WallInstant { WallInstant(us: s * 1_000_000) }
        let files = [
            SyncArchive.File(path: "/l/drone1-20240101-100000.qlog", lastWrite: at(1000)),
            SyncArchive.File(path: "/l/drone1-20240101-110000.qlog", lastWrite: at(2000)),
            SyncArchive.File(path: "/l/drone1-20240101-120000.qlog", lastWrite: at(3000)),
            SyncArchive.File(path: "/l/drone2-20240101-120000.qlog", lastWrite: at(3000)),
            SyncArchive.File(path: "/l/drone1-notes.txt", lastWrite: at(3000)),
        ]
        let window = at(1500)...at(1600)
        #expect(SyncArchive.candidates(files, drone: F.drone, window: window)
                == ["/l/drone1-20240101-120000.qlog", "/l/drone1-20240101-110000.qlog"])
        #expect(SyncArchive.candidates(files, drone: F.drone, window: window, maxFiles: 1)
                == ["/l/drone1-20240101-120000.qlog"])
    }
}
