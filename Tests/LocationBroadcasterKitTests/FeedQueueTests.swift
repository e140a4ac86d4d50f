import Logging
import QuadProtocol
import Synchronization
import Testing
@testable import LocationBroadcasterKit

/// A consumer that falls behind loses the oldest bus events, never memory, and never in silence.
@Suite("location-broadcaster's per-consumer inbox")
struct FeedQueueTests {
    /// Keeps every message logged through it.
    final class Lines: Sendable {
        let value = Mutex<[String]>([])
    }

    struct CapturingHandler: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) { lines.value.withLock { $0.append("\(event.level): \(event.message)") } }
    }

    func presence(_ index: Int) -> BusFeed.Event {
        .presence(name: "s\(index)", status: ServiceStatus(state: .online, service: "s\(index)", version: "0.1.0",
                                                           startedAt: 1, pid: 1))
    }

    @Test("past 1024 events the oldest go, each counted; the first drop and every 1024th are logged")
    func dropsTheOldestAndSaysSo() throws {
        let handler = CapturingHandler(lines: Lines())
        let queue = BusFeed.consumerInbox(logger: Logger(label: "test") { _ in handler })
        for index in 0..<(BusFeed.consumerLimit + 6) { queue.send(presence(index)) }
        #expect(queue.droppedCount == 6)
        let events = queue.take().events
        #expect(events.count == BusFeed.consumerLimit)
        guard case .presence(let first, _) = try #require(events.first) else { Issue.record("not a presence"); return }
        #expect(first == "s6")
        #expect(handler.lines.value.withLock { $0 }
            == ["warning: a bus consumer fell behind: 1 event(s) dropped so far, the oldest first"])

        for index in 0..<(2 * BusFeed.consumerLimit) { queue.send(presence(index)) }
        #expect(queue.droppedCount == 6 + BusFeed.consumerLimit)
        #expect(handler.lines.value.withLock { $0.count } == 2)
        #expect(queue.take().events.count == BusFeed.consumerLimit)
        #expect(queue.take().events.isEmpty)
    }
}
