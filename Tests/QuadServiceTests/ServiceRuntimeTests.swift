import InMemoryMQTT
import Logging
import QuadMQTT
import QuadProtocol
import QuadService
import ServiceLifecycle
import Testing

/// The runtime's shape without a broker process: presence, an ordered inbox, a clean goodbye.
@Suite("Service runtime over the in-memory broker")
struct ServiceRuntimeTests {
    struct Echo: Service {
        let runtime: ServiceRuntime
        let inbox: Inbox<[UInt8]>
        func run() async throws {
            try runtime.feed(inbox, Topics.target) { message, _ in message.payload }
            for await payload in inbox.events.cancelOnGracefulShutdown() {
                try runtime.publish(Topics.command, payload: payload)
                if payload == [0] { return }
            }
        }
    }

    @Test("online when it runs, each inbox message handled in order, offline (retained) when it ends")
    func presenceAndInbox() async throws {
        let broker = InMemoryBroker()
        let drone = try #require(DroneID(rawValue: "t1"))
        let runtime = ServiceRuntime(service: "echo", drone: drone,
                                     connection: broker.connect(clientId: "echo"), logger: Logger(label: "echo"))
        let ground = broker.connect(clientId: "ground")
        try ground.start()
        let running = Task { try await runtime.run([Echo(runtime: runtime, inbox: Inbox())]) }
        let status = Topics.status(service: "echo", drone: drone)
        _ = await eventually { broker.retained(on: status) != nil }
        #expect(String(decoding: try #require(broker.retained(on: status)).payload, as: UTF8.self)
                    .contains(#""state":"online""#))
        for payload: [UInt8] in [[3], [2], [1], [0]] {
            try ground.publish(topic: Topics.target.topic(for: drone), payload: payload, qos: 1, retain: false,
                               expiryS: nil)
        }
        try await running.value
        #expect(broker.published(matching: Topics.command.topic(for: drone)).map(\.payload) == [[3], [2], [1], [0]])
        #expect(String(decoding: try #require(broker.retained(on: status)).payload, as: UTF8.self)
                    .contains(#""state":"offline""#))
        // Past the shutdown watchdog's limit: a runtime in a test process must not arm it (it would exit(0) the
        // whole test run, which then looks green; scripts/run-tests.sh also checks for the run's summary).
        try await Task.sleep(for: .seconds(ShutdownWatchdog.limitS + 0.3))
    }
}
