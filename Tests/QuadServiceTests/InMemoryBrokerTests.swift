import InMemoryMQTT
import QuadMQTT
import Synchronization
import Testing

/// The fake broker keeps what service logic relies on: filters, order, retained, Last Will, refusals.
@Suite("In-memory broker")
struct InMemoryBrokerTests {
    final class Received: Sendable {
        let messages = Mutex<[MQTTMessage]>([])
        func add(_ message: MQTTMessage) { messages.withLock { $0.append(message) } }
        var topics: [String] { messages.withLock { $0.map(\.topic) } }
        func waitFor(count: Int) async -> [MQTTMessage] {
            _ = await eventually { messages.withLock { $0.count } >= count }
            return messages.withLock { $0 }
        }
    }

    @Test("wildcards match, and one connection's messages arrive in publish order across its filters")
    func orderAcrossFilters() async throws {
        let broker = InMemoryBroker()
        let reader = broker.connect(clientId: "reader")
        let writer = broker.connect(clientId: "writer")
        try reader.start()
        try writer.start()
        let got = Received()
        try reader.subscribe("quad/+/pilot/claim", qos: 1) { got.add($0) }
        try reader.subscribe("quad/d1/status/#", qos: 1) { got.add($0) }
        try writer.publish(topic: "quad/d1/pilot/claim", payload: [1], qos: 1, retain: false, expiryS: nil)
        try writer.publish(topic: "quad/d1/status/ground", payload: [2], qos: 1, retain: false, expiryS: nil)
        try writer.publish(topic: "quad/d2/target", payload: [3], qos: 1, retain: false, expiryS: nil)
        try writer.publish(topic: "quad/d2/pilot/claim", payload: [4], qos: 1, retain: false, expiryS: nil)
        let messages = await got.waitFor(count: 3)
        #expect(messages.map(\.payload) == [[1], [2], [4]])
    }

    @Test("a late subscriber gets the retained copy flagged retain; an empty retained payload clears it")
    func retained() async throws {
        let broker = InMemoryBroker()
        let writer = broker.connect()
        try writer.start()
        try writer.publish(topic: "a/b", payload: [9], qos: 1, retain: true, expiryS: nil)
        try writer.publish(topic: "a/c", payload: [8], qos: 1, retain: true, expiryS: nil)
        try writer.publish(topic: "a/c", payload: [], qos: 1, retain: true, expiryS: nil)
        let reader = broker.connect()
        try reader.start()
        let got = Received()
        try reader.subscribe("a/#", qos: 1) { got.add($0) }
        let messages = await got.waitFor(count: 1)
        #expect(messages == [MQTTMessage(topic: "a/b", payload: [9], qos: 1, retain: true)])
    }

    @Test("a killed connection's Last Will is published; a clean shutdown sends none")
    func lastWill() async throws {
        let broker = InMemoryBroker()
        let will = MQTTMessage(topic: "s/x", payload: [0], qos: 1, retain: true)
        let dies = broker.connect(will: will)
        let leaves = broker.connect(will: MQTTMessage(topic: "s/y", payload: [0], qos: 1, retain: true))
        try dies.start()
        try leaves.start()
        leaves.shutdown(timeout: .seconds(0.5))
        dies.kill()
        #expect(broker.retained(on: "s/x") == will)
        #expect(broker.retained(on: "s/y") == nil)
        #expect(throws: MQTTError.notConnected) {
            try dies.publish(topic: "t", payload: [], qos: 0, retain: false, expiryS: nil)
        }
    }

    @Test("a refused subscription is counted and reported as an event")
    func refusal() async throws {
        let broker = InMemoryBroker()
        broker.refuse(filter: "$share/g/quad/#")
        let client = broker.connect()
        let events = client.events()
        try client.start()
        try client.subscribe("$share/g/quad/#", qos: 1) { _ in }
        #expect(client.refusedSubscriptions == 1)
        var seen: [MQTTConnectionEvent] = []
        for await event in events {
            seen.append(event)
            if seen.count == 2 { break }
        }
        #expect(seen == [.connected, .subscriptionRefused(filter: "$share/g/quad/#", code: 0x80)])
    }
}
