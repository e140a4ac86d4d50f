import Foundation
import Logging
import QuadMQTT
import QuadService
import Synchronization
import Testing

/// A service's inbox sees a connection's messages in the order the broker delivered them, across filters
/// (the pilot-arbitration failure: a `release` claim handled after its sender's `offline` presence).
@Suite("Ordered inbox", .offPool, .enabled(if: TestEnvironment.available("mosquitto")))
struct OrderedInboxTests {
    enum Event: Sendable, Equatable {
        case a(String)
        case b(String)
    }

    @Test("2000 messages alternating on two topics reach the service-side inbox in publish order")
    func alternatingTopics() async throws {
        let broker = try BrokerProcess()
        var logger = Logger(label: "ordered")
        logger.logLevel = .warning
        let receiver = try MQTTClient(configuration: .init(port: Int32(broker.port), clientId: "ordered-rx"),
                                      logger: logger)
        let inbox = Inbox<Event>(bufferLimit: 8192)
        try inbox.feed(receiver, filter: "order/a", qos: 1) { m, _ in .a(String(decoding: m.payload, as: UTF8.self)) }
        try inbox.feed(receiver, filter: "order/+/b", qos: 1) { m, _ in .b(String(decoding: m.payload, as: UTF8.self)) }
        try receiver.start()
        #expect(await receiver.waitUntilConnected(timeout: TestEnvironment.readinessTimeout))
        let sender = try MQTTClient(configuration: .init(port: Int32(broker.port), clientId: "ordered-tx"),
                                    logger: logger)
        try sender.start()
        #expect(await sender.waitUntilConnected(timeout: TestEnvironment.readinessTimeout))
        // Both subscriptions are active once a marker on the second one arrives (no guessed SUBACK delay).
        var iterator = inbox.events.makeAsyncIterator()
        let ready = Task {
            while !Task.isCancelled {
                _ = try? sender.publish(topic: "order/ready/b", payload: Array("ready".utf8), qos: 0, retain: false)
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        while let event = await iterator.next(), event != .b("ready") {}
        ready.cancel()
        _ = await ready.result

        var expected: [Event] = []
        for i in 0..<2000 {
            let onA = i % 2 == 0
            while true {
                do {
                    try sender.publish(topic: onA ? "order/a" : "order/x/b", payload: Array("\(i)".utf8), qos: 1,
                                       retain: false)
                    break
                } catch .offlineQueueFull {
                    try await Task.sleep(for: .milliseconds(2))
                }
            }
            expected.append(onA ? .a("\(i)") : .b("\(i)"))
        }
        var received: [Event] = []
        let watchdog = Task { try await Task.sleep(for: .seconds(30)); inbox.finish() }
        defer { watchdog.cancel() }
        while received.count < expected.count {
            guard let event = await iterator.next() else { break }
            // Markers still in flight precede the data (one publisher, published before it).
            if event != .b("ready") { received.append(event) }
        }
        var firstDifference: Int?
        for index in 0..<min(received.count, expected.count) where received[index] != expected[index] {
            firstDifference = index
            break
        }
        #expect(received.count == expected.count)
        #expect(firstDifference == nil, "first out of order at \(firstDifference ?? -1): \(received.prefix(40))")
        #expect(inbox.droppedCount == 0)
        sender.shutdown()
        receiver.shutdown()
        inbox.finish()
    }
}
