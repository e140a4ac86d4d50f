import InMemoryMQTT
import QuadService
import Testing

/// `Inbox.tick`: always a task, whatever the connection (a ground tool's messages wait for a dispatcher task; a
/// thread's tick would overtake them; a loop on a thread of its own keeps its deadlines itself). Ticks come in order,
/// never before their deadline, between the messages, and stop once the inbox finishes.
@Suite("Inbox tick")
struct InboxTickTests {
    enum Event: Sendable, Equatable {
        /// A tick at `nowUs`; `inTask`: its event was made inside a Swift task.
        case tick(nowUs: Int64, inTask: Bool)
        case message(String)
    }

    static func tickEvent(_ now: MonotonicInstant) -> Event {
        .tick(nowUs: now.us, inTask: withUnsafeCurrentTask { $0 != nil })
    }

    /// An inbox fed from one in-memory connection (direct: as a board service's), and a publisher on the same broker.
    static func fedInbox(direct: Bool) throws -> (Inbox<Event>, InMemoryConnection) {
        let broker = InMemoryBroker()
        let service = broker.connect(clientId: "service", deliversOnPublisherThread: direct)
        let publisher = broker.connect(clientId: "publisher")
        try service.start()
        try publisher.start()
        let inbox = Inbox<Event>()
        try inbox.feed(service, filter: "quad/t/#", qos: 0) { message, _ in .message(message.topic) }
        return (inbox, publisher)
    }

    /// The first `count` ticks (more if `messages` messages had not come yet), and every message before the last.
    static func collect(_ inbox: Inbox<Event>, ticks count: Int, messages expected: Int = 0)
        async -> (ticks: [(nowUs: Int64, inTask: Bool)], messages: [String]) {
        var ticks: [(nowUs: Int64, inTask: Bool)] = []
        var messages: [String] = []
        for await event in inbox.events {
            switch event {
            case .tick(let nowUs, let inTask): ticks.append((nowUs, inTask))
            case .message(let topic): messages.append(topic)
            }
            if ticks.count >= count && messages.count >= expected { break }
        }
        inbox.finish()
        return (ticks, messages)
    }

    @Test("ticks from a task, in order, none early, between messages, whatever the connection",
          arguments: [false, true])
    func taskTicks(direct: Bool) async throws {
        let (inbox, publisher) = try Self.fedInbox(direct: direct)
        let periodMs = 5
        let startUs = MonotonicClock.nowUs()
        inbox.tick(every: .milliseconds(periodMs), Self.tickEvent)
        try publisher.publish(topic: "quad/t/a", payload: [1], qos: 0, retain: false)
        let (ticks, messages) = await Self.collect(inbox, ticks: 4, messages: 1)
        #expect(messages == ["quad/t/a"])
        let inTask = ticks.filter(\.inTask).count
        #expect(inTask == ticks.count, "the tick runs in a task")
        #expect(ticks.map(\.nowUs) == ticks.map(\.nowUs).sorted())
        for (index, tick) in ticks.enumerated() {
            #expect(tick.nowUs >= startUs + Int64((index + 1) * periodMs * 1000), "tick \(index + 1) came early")
        }
    }

    @Test("before any feed: a task")
    func noFeedTicksOnTask() async throws {
        let inbox = Inbox<Event>()
        inbox.tick(every: .milliseconds(2), Self.tickEvent)
        let (ticks, _) = await Self.collect(inbox, ticks: 2)
        let inTask = ticks.filter(\.inTask).count
        #expect(inTask == ticks.count)
    }

    @Test("after finish the stream ends and no tick is delivered (either connection)", arguments: [true, false])
    func endsAfterFinish(direct: Bool) async throws {
        let (inbox, _) = try Self.fedInbox(direct: direct)
        inbox.tick(every: .milliseconds(2), Self.tickEvent)
        inbox.finish()
        var delivered = 0
        for await _ in inbox.events { delivered += 1 }
        #expect(delivered == 0)
    }
}
