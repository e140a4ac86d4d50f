import Clocks
import FlightLog
import LogSync
import QuadProtocol
import Testing

struct SyncSessionTests {
    typealias F = SyncFixtures

    /// The board's complete log: sequences 1…40 of telemetry/drone.
    static let board = (1...40).map { F.state($0, receiveDelayUs: 500) }

    /// The board's chunks for `outgoing`.
    static func answer(_ outgoing: OutgoingSyncRequest, from board: [LogRecord] = board,
                       limits: SyncAnswer.Limits = .init(maxRecordsPerChunk: 3)) -> [[UInt8]] {
        var answer = SyncAnswer(request: outgoing.request, drone: outgoing.drone, limits: limits)
        for record in board { answer.offer(record) }
        return answer.responses().map { $0.encoded() }
    }

    @Test("gaps found, asked for, answered in chunks, merged in order: no gap and no duplicate left")
    func fillsGaps() throws {
        let ground = Self.board.filter { !(5...12).contains(RecordKey($0)!.sequence) && RecordKey($0)!.sequence != 30 }
        var session = SyncSession(requester: "ground")
        session.add(GapWatch.missingRanges(in: ground), now: .init(us: 0))
        let requests = session.poll(now: .init(us: 0))
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.drone == F.drone)
        #expect(request.request.requester == "ground")
        #expect(request.request.ranges.map { [$0.first, $0.last] } == [[5, 12], [30, 30]])
        var recovered: [LogRecord] = []
        for chunk in Self.answer(request) {
            let receipt = session.receive(chunk, now: .init(us: 1000))
            #expect(receipt.rejections.isEmpty)
            recovered += receipt.records
        }
        #expect(session.isIdle)
        #expect(session.recordsRecovered == 9 && session.requestsAnswered == 1 && session.unavailable.isEmpty)
        #expect(recovered.allSatisfy { $0.recovered })
        // Each lands between its live neighbours, at the time the ground would have received it.
        let merged = RecoveredOrder.inReceiveOrder(ground + recovered)
        #expect(F.sequences(merged) == Array(1...40))
        #expect(GapWatch.missingRanges(in: merged).isEmpty)
        #expect(merged.map(\.payload) == Self.board.map(\.payload))
    }

    /// The ground's clock saw the outage shorter than the sender's stamps span it (the record before the gap came
    /// late, the one after it early): the last missing records map past the record after the gap and are clamped
    /// to the gap's end. They must still land before that record, or the merged log shows them as a new gap.
    @Test("recovered records clamped to the gap's end still land before the record after it: no gap left")
    func clampedToGapEnd() throws {
        let before = (1...20).map { F.state($0, receiveDelayUs: 2_000) }
        let after = (41...60).map { F.state($0, receiveDelayUs: -800_000) }  // 40 maps 0.8 s past 41's receipt
        let ground = before + after
        var session = SyncSession(requester: "ground")
        session.add(GapWatch.missingRanges(in: ground), now: .init(us: 0))
        let request = try #require(session.poll(now: .init(us: 0)).first)
        let board = (1...60).map { F.state($0, receiveDelayUs: 500) }
        var recovered: [LogRecord] = []
        for chunk in Self.answer(request, from: board) {
            recovered += session.receive(chunk, now: .init(us: 1)).records
        }
        #expect(recovered.count == 20)
        let gapEnd = after[0].receiveTimeUs
        #expect(recovered.allSatisfy { $0.receiveTimeUs < gapEnd && $0.receiveTimeUs >= before[19].receiveTimeUs })
        let merged = RecoveredOrder.inReceiveOrder(ground + recovered)
        #expect(F.sequences(merged) == Array(1...60))
        #expect(GapWatch.missingRanges(in: merged).isEmpty)
    }

    @Test("requests wait requestDelay, carry at most maxRangesPerRequest ranges, at most maxOutstanding in flight")
    func bounds() {
        let limits = SyncLimits(maxRangesPerRequest: 2, maxOutstandingRequests: 2, requestDelay: .milliseconds(1))
        var session = SyncSession(requester: "g", limits: limits)
        let ranges = stride(from: UInt32(2), through: 20, by: 3).map { F.missing($0, $0) }
        session.add(ranges, now: .init(us: 0))
        #expect(session.poll(now: .init(us: 999)).isEmpty)
        let first = session.poll(now: .init(us: 1_000))
        #expect(first.map { $0.request.ranges.count } == [2, 2])
        #expect(Set(first.map(\.request.id)).count == 2)
        #expect(session.poll(now: .init(us: 1_001)).isEmpty)
        #expect(session.outstandingCount == 2)
        for request in first { for chunk in Self.answer(request) { _ = session.receive(chunk, now: .init(us: 2_000)) } }
        let second = session.poll(now: .init(us: 2_000))
        #expect(second.map { $0.request.ranges.count } == [2, 1])
    }

    @Test("no answer: asked again after the timeout, then given up as unanswered; nothing counts as answered")
    func noAnswer() {
        let limits = SyncLimits(responseTimeout: .milliseconds(1), maxAttempts: 3)
        var session = SyncSession(requester: "g", limits: limits)
        session.add([F.missing(5, 9)], now: .init(us: 0))
        var sent = 0
        var now: Int64 = 0
        while !session.isIdle, now < 100_000 {
            sent += session.poll(now: .init(us: now)).count
            now += 100
        }
        #expect(sent == 3)
        #expect(session.unanswered.map(\.count) == [5])
        #expect(session.requestsAnswered == 0 && session.recordsRecovered == 0)
    }

    @Test("a partial answer: what the board lacks is listed as unavailable")
    func partial() throws {
        var session = SyncSession(requester: "g")
        session.add([F.missing(5, 12)], now: .init(us: 0))
        let request = try #require(session.poll(now: .init(us: 0)).first)
        let boardWithHoles = Self.board.filter { ![7, 8, 11].contains(RecordKey($0)!.sequence) }
        for chunk in Self.answer(request, from: boardWithHoles) { _ = session.receive(chunk, now: .init(us: 1)) }
        #expect(session.recordsRecovered == 5)
        #expect(session.unavailable.map { [$0.first, $0.last] } == [[7, 8], [11, 11]])
        #expect(session.isIdle)
    }

    @Test("a truncated answer is followed by a request for the rest")
    func truncated() throws {
        var session = SyncSession(requester: "g")
        session.add([F.missing(1, 40)], now: .init(us: 0))
        var recovered = 0
        var now: Int64 = 0
        while !session.isIdle, now < 100 {
            for request in session.poll(now: .init(us: now)) {
                for chunk in Self.answer(request, limits: .init(maxRecordsPerChunk: 4, maxRecords: 15)) {
                    recovered += session.receive(chunk, now: .init(us: now)).records.count
                }
            }
            now += 1
        }
        #expect(recovered == 40)
        #expect(session.requestsSent == 3)
        #expect(session.unavailable.isEmpty && session.unanswered.isEmpty)
    }

    @Test("hostile or broken responses are rejected with a typed error, counted, and give no record")
    func hostile() throws {
        var session = SyncSession(requester: "g")
        session.add([MissingRange(topic: F.topic, first: 5, last: 9, notBefore: .init(us: F.senderTimeUs(4)),
                                  notAfter: .init(us: F.senderTimeUs(10)))], now: .init(us: 0))
        let request = try #require(session.poll(now: .init(us: 0)).first)
        let id = request.request.id
        let other = DroneID(rawValue: "drone2") ?? .default
        func chunk(_ records: [LogRecord], index: UInt16 = 0, count: UInt16 = 4, requestId: UInt32? = nil) -> [UInt8] {
            SyncResponse(requestId: requestId ?? id, status: .complete, chunkIndex: index, chunkCount: count,
                         records: records).encoded()
        }
        let text = try LogRecord(receiveTimeUs: 0, topic: F.topic, payload: Array("x".utf8))
        let cases: [([UInt8], SyncResponseError)] = [
            (Array("garbage".utf8), .malformed(.badMagic(expected: SyncResponse.magic, got: Array("garb".utf8)))),
            (chunk([F.state(5)], requestId: id + 1), .unknownRequest(id + 1)),
            (chunk([F.state(20)]), .notRequested(topic: F.topic, sequence: 20)),
        ]
        for (payload, error) in cases {
            let receipt = session.receive(payload, now: .init(us: 1))
            #expect(receipt.records.isEmpty)
            #expect(receipt.rejections == [error])
        }
        // One chunk with a good record among bad ones: only the good one is taken.
        let mixed = session.receive(chunk([F.state(5), F.state(5), text,
            F.state(6, topic: Topics.droneState.topic(for: other)),
                                           F.state(7, timestampUs: F.t0)], index: 1), now: .init(us: 1))
        #expect(F.sequences(mixed.records) == [5])
        #expect(mixed.rejections == [.duplicateRecord(topic: F.topic, sequence: 5), .undecodableRecord(topic: F.topic),
                                     .notRequested(topic: Topics.droneState.topic(for: other), sequence: 6),
                                     .notRequested(topic: F.topic, sequence: 7)])
        #expect(session.receive(chunk([], index: 1), now: .init(us: 1)).rejections
            == [.duplicateChunk(requestId: id, index: 1)])
        #expect(session.receive(chunk([], index: 0, count: 2), now: .init(us: 1)).rejections
                == [.chunkCountChanged(requestId: id, was: 4, now: 2)])
        #expect(session.rejected == ["malformed": 1, "unknown-request": 1, "not-requested": 3, "duplicate-record": 1,
                                     "undecodable-record": 1, "duplicate-chunk": 1, "chunk-count-changed": 1])
        #expect(session.rejectedTotal == 9)
        #expect(session.recordsRecovered == 1)

        // A refusal is counted and the ranges are asked for again.
        var refusing = SyncSession(requester: "g")
        refusing.add([F.missing(5, 9)], now: .init(us: 0))
        let refused = try #require(refusing.poll(now: .init(us: 0)).first)
        let receipt = refusing.receive(SyncResponse.refusal(requestId: refused.request.id, reason: "busy").encoded(),
            now: .init(us: 1))
        #expect(receipt.rejections == [.refused(requestId: refused.request.id, reason: "busy")])
        #expect(refusing.poll(now: .init(us: 1)).count == 1)
    }

    @Test("live arrivals: a late missing record fills its gap; a late copy of a recovered one is refused")
    func live() throws {
        var session = SyncSession(requester: "g", limits: SyncLimits(requestDelay: .milliseconds(1)))
        session.add([F.missing(5, 9)], now: .init(us: 0))
        let admitted1 = session.admitLive(F.state(6))
        #expect(admitted1)  // QoS 1 from the bridge's queue, before the request went out
        #expect(session.filledLive == 1)
        let request = try #require(session.poll(now: .init(us: 1_000)).first)
        #expect(request.request.ranges.map { [$0.first, $0.last] } == [[5, 5], [7, 9]])
        let admitted2 = session.admitLive(F.state(9))
        #expect(admitted2)  // while the request is in flight
        var recovered: [LogRecord] = []
        var rejections: [SyncResponseError] = []
        for chunk in Self.answer(request) {
            let receipt = session.receive(chunk, now: .init(us: 1_001))
            recovered += receipt.records
            rejections += receipt.rejections
        }
        #expect(F.sequences(recovered) == [5, 7, 8])
        #expect(rejections == [.duplicateRecord(topic: F.topic, sequence: 9)])
        let admitted3 = session.admitLive(F.state(7))
        #expect(!admitted3)
        #expect(session.duplicatesDropped == 1)
        let admitted4 = session.admitLive(F.state(30))
        #expect(admitted4)
    }
}
