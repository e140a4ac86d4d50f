import Clocks
import FlightLog
import LogSync
import QuadProtocol
import Testing

struct GapWatchTests {
    typealias F = SyncFixtures

    @Test("a hole in one topic's sequence is one range, bounded by its neighbours' timestamps and receive times")
    func findsGap() {
        let log = [1, 2, 3, 9, 10].map { F.state($0) } + [F.state(1, topic: F.positionTopic),
            F.state(2, topic: F.positionTopic)]
        let ranges = GapWatch.missingRanges(in: log)
        #expect(ranges.count == 1)
        let range = try! #require(ranges.first)
        #expect(range.topic == F.topic)
        #expect((range.first, range.last, range.count) == (4, 8, 5))
        #expect(range.notBefore.us == F.senderTimeUs(3) && range.notAfter.us == F.senderTimeUs(9))
        #expect(range.earliestReceive == F.state(3).receiveTime && range.latestReceive == F.state(9).receiveTime)
        // A recovered record lands where its own receive time would have been.
        #expect(range.receiveTime(senderStamp: WallInstant(us: F.senderTimeUs(5))) == F.state(5).receiveTime)
        #expect(range.requestRange.path == "telemetry/drone")
    }

    @Test("no gap for restarts, duplicates, retained, text or non-telemetry records; recovered records fill gaps")
    func ignoresNonGaps() throws {
        let command = Command(senderId: "ground", sequence: 50, timestampUs: F.t0, kind: .takeoff)
        let commandRecord = try LogRecord(receiveTimeUs: 0, topic: Topics.command.topic(for: F.drone),
                                          payload: try command.encoded())
        let text = try LogRecord(receiveTimeUs: 0, topic: F.topic, payload: Array("hello".utf8))
        var log = [commandRecord, text, F.state(1), F.state(2), F.state(2), F.state(1), F.state(2)]  // dup, restart
        log += [F.state(3), F.state(40, timestampUs: F.senderTimeUs(3), retain: true), F.state(4), F.state(6)]
        // Recovered 5, appended at the end of the file: read in receive order it closes the gap.
        #expect(GapWatch.missingRanges(in: log + [F.state(5).asRecovered(receiveTimeUs: F.state(5).receiveTimeUs)])
            .isEmpty)
        #expect(GapWatch.missingRanges(in: log).map(\.summary) == ["\(F.topic) 5 (1 record)"])
    }

    @Test("a wrap of the counter inside a gap is two ranges; a gap beyond maxGap is not asked for")
    func wrapAndHuge() {
        let log = [F.state(UInt32.max - 2), F.state(3)]
        let ranges = GapWatch.missingRanges(in: log)
        #expect(ranges.map { [$0.first, $0.last] } == [[UInt32.max - 1, UInt32.max], [1, 2]])
        var watch = GapWatch(maxGap: 10)
        #expect(watch.observe(F.state(1)).isEmpty)
        #expect(watch.observe(F.state(100)).isEmpty)
        #expect(watch.ignoredGaps == 1)
    }

    @Test("removing sequences splits a range; the receive time is clamped inside the gap")
    func rangeArithmetic() {
        func at(_ us: Int64) -> WallInstant { WallInstant(us: us) }
        let range = MissingRange(topic: F.topic, first: 4, last: 8, notBefore: at(0), notAfter: at(100),
                                 clockOffset: .milliseconds(1), earliestReceive: at(500), latestReceive: at(900))
        #expect(range.removing(6).map { [$0.first, $0.last] } == [[4, 5], [7, 8]])
        #expect(range.removing(4).map { [$0.first, $0.last] } == [[5, 8]])
        #expect(range.removing(9) == [range])
        #expect(range.with(first: 4, last: 4).removing(4).isEmpty)
        #expect(range.receiveTime(senderStamp: at(-10_000)) == at(500))
        #expect(range.receiveTime(senderStamp: at(10_000)) == at(899))  // before the record after the gap
        let tie = MissingRange(topic: F.topic, first: 4, last: 8, notBefore: at(0), notAfter: at(100),
                               earliestReceive: at(500), latestReceive: at(500))
        #expect(tie.receiveTime(senderStamp: at(10_000)) == at(500))  // both neighbours in one µs: no room
        #expect(range.receiveTime(senderStamp: at(.max)) == at(500))  // overflow: never a trap
    }
}

extension MissingRange {
    func with(first: UInt32, last: UInt32) -> MissingRange {
        var copy = self
        copy.first = first
        copy.last = last
        return copy
    }
}
