import QuadService
import Testing

/// `Inbox.tick` runs on a plain thread sleeping to absolute monotonic deadlines: its events come in order, never
/// before their deadline, interleaved with what else is sent, and the thread ends once the inbox finishes.
@Suite("Inbox tick")
struct InboxTickTests {
    enum Event: Sendable, Equatable {
        case tick(Int64)
        case other
    }

    @Test("ticks arrive in order, none before its deadline, between other events")
    func ticksInOrder() async throws {
        let inbox = Inbox<Event>()
        let periodMs = 5
        let startUs = MonotonicClock.nowUs()
        inbox.tick(everyMs: periodMs) { .tick($0) }
        inbox.send(.other)
        var ticks: [Int64] = []
        var others = 0
        for await event in inbox.events {
            switch event {
            case .tick(let nowUs): ticks.append(nowUs)
            case .other: others += 1
            }
            if ticks.count == 4 { break }
        }
        inbox.finish()
        #expect(others == 1)
        #expect(ticks == ticks.sorted())
        for (index, nowUs) in ticks.enumerated() {
            #expect(nowUs >= startUs + Int64((index + 1) * periodMs * 1000), "tick \(index + 1) came early")
        }
    }

    @Test("after finish the stream ends and no tick is delivered")
    func endsAfterFinish() async throws {
        let inbox = Inbox<Event>()
        inbox.tick(everyMs: 2) { .tick($0) }
        inbox.finish()
        var delivered = 0
        for await _ in inbox.events { delivered += 1 }
        #expect(delivered == 0)
    }
}
