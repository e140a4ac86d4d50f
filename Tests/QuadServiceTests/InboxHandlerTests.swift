import InMemoryMQTT
import QuadService
import Synchronization
import Testing

/// `Inbox(handler:)`: drone-controller's way of taking its events, on the thread that delivers them.
@Suite("Inbox with a handler")
struct InboxHandlerTests {
    @Test("each event is handled at once on the sending thread, in order, and none after finish")
    func handledWhereSent() throws {
        let seen = Mutex<[String]>([])
        let inbox = Inbox<String> { event in seen.withLock { $0.append(event) } }
        let broker = InMemoryBroker()
        let service = broker.connect(clientId: "service", deliversOnPublisherThread: true)
        let publisher = broker.connect(clientId: "publisher")
        try service.start()
        try publisher.start()
        try inbox.feed(service, filter: "quad/t/#", qos: 0) { message, _ in message.topic }
        inbox.send("first")
        try publisher.publish(topic: "quad/t/a", payload: [1], qos: 0, retain: false)
        // Handled inside the publish call: a direct connection delivers on the publisher's thread here.
        #expect(seen.withLock { $0 } == ["first", "quad/t/a"])
        inbox.finish()
        inbox.send("late")
        try publisher.publish(topic: "quad/t/b", payload: [1], qos: 0, retain: false)
        #expect(seen.withLock { $0 } == ["first", "quad/t/a"])
    }

    @Test("ticks reach the handler until finish")
    func ticksUntilFinish() async throws {
        let ticks = Atomic<Int>(0)
        let inbox = Inbox<Int64> { _ in ticks.add(1, ordering: .relaxed) }
        let service = InMemoryBroker().connect(clientId: "service", deliversOnPublisherThread: true)
        try service.start()
        try inbox.feed(service, filter: "quad/t/#", qos: 0) { _, nowUs in nowUs }
        inbox.tick(everyMs: 2) { $0 }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(5))
        while ticks.load(ordering: .relaxed) < 3 && clock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        inbox.finish()
        let atFinish = ticks.load(ordering: .relaxed)
        #expect(atFinish >= 3)
        try await Task.sleep(for: .milliseconds(30))
        #expect(ticks.load(ordering: .relaxed) == atFinish, "a tick after finish")
    }
}
