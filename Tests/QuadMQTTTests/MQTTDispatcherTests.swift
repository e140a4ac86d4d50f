import Foundation
import QuadMQTT
import Synchronization
import Testing

/// The connection's one ordered queue, fed in memory (no broker, no libmosquitto thread).
@Suite("MQTTDispatcher")
struct MQTTDispatcherTests {
    final class Seen: Sendable {
        let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// Returns as soon as `count` entries are in; the bound is for a machine so busy that this process starves.
    func waitFor(_ seen: Seen, count: Int) async throws {
        let deadline = Date().addingTimeInterval(120)
        while seen.all.count < count, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test("interleaved messages on two filters reach their handlers in delivery order")
    func interleavedOrder() async throws {
        let dispatcher = MQTTDispatcher(bufferLimit: 8192, matches: MQTTClient.matches)
        let seen = Seen()
        try dispatcher.add(
            filter: "quad/d/pilot/claim") { seen.add("claim:" + String(decoding: $0.payload, as: UTF8.self)) }
        try dispatcher.add(
            filter: "quad/d/status/#") { seen.add("status:" + String(decoding: $0.payload, as: UTF8.self)) }
        var expected: [String] = []
        for i in 0..<2000 {
            let claim = i % 2 == 0
            let topic = claim ? "quad/d/pilot/claim" : "quad/d/status/location-broadcaster/x"
            dispatcher.receive(MQTTMessage(topic: topic, payload: Array("\(i)".utf8)))
            expected.append((claim ? "claim:" : "status:") + "\(i)")
        }
        try await waitFor(seen, count: expected.count)
        #expect(seen.all == expected)
        #expect(dispatcher.droppedCount == 0)
    }

    @Test("direct: every handler has run, in delivery order and on the receiving thread, when receive returns")
    func directRunsHandlersInReceive() async throws {
        let dispatcher = MQTTDispatcher(bufferLimit: 1, matches: MQTTClient.matches, direct: true)
        #expect(dispatcher.isDirect)
        let seen = Seen()
        let receiver = Mutex<pthread_t?>(nil)
        let otherThread = Atomic<Int>(0)
        try dispatcher.add(
            filter: "quad/d/pilot/claim") { seen.add("claim:" + String(decoding: $0.payload, as: UTF8.self)) }
        try dispatcher.add(filter: "quad/d/status/#") { message in
            if receiver.withLock({ $0.map { pthread_equal($0, pthread_self()) == 0 } ?? true }) {
                otherThread.add(1, ordering: .relaxed)
            }
            seen.add("status:" + String(decoding: message.payload, as: UTF8.self))
        }
        // One plain thread plays libmosquitto's network thread; the buffer of 1 would drop nearly all if queued.
        let done = Atomic<Bool>(false)
        let thread = Thread {
            receiver.withLock { $0 = pthread_self() }
            for i in 0..<2000 {
                let claim = i % 2 == 0
                let topic = claim ? "quad/d/pilot/claim" : "quad/d/status/navigator"
                dispatcher.receive(MQTTMessage(topic: topic, payload: Array("\(i)".utf8)))
                if seen.all.count != i + 1 { otherThread.add(1000, ordering: .relaxed) }
            }
            dispatcher.receive(MQTTMessage(topic: "nobody/listens", payload: []))
            done.store(true, ordering: .releasing)
        }
        thread.start()
        let deadline = Date().addingTimeInterval(120)
        while !done.load(ordering: .acquiring), Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let expected = (0..<2000).map { ($0 % 2 == 0 ? "claim:" : "status:") + "\($0)" }
        #expect(seen.all == expected)
        #expect(otherThread.load(ordering: .relaxed) == 0, "a handler ran late or on another thread")
        #expect(dispatcher.droppedCount == 0)
        #expect(dispatcher.unroutedCount == 1)
        dispatcher.finish()
        await dispatcher.drained()
    }

    @Test("the same filter twice: each handler gets each message once")
    func sameFilterTwice() async throws {
        let dispatcher = MQTTDispatcher(bufferLimit: 64, matches: MQTTClient.matches)
        let seen = Seen()
        #expect(try dispatcher.add(filter: "a/#") { _ in seen.add("first") })
        #expect(try !dispatcher.add(filter: "a/#") { _ in seen.add("second") })
        dispatcher.receive(MQTTMessage(topic: "a/b", payload: []))
        try await waitFor(seen, count: 2)
        try await Task.sleep(for: .milliseconds(50))
        #expect(seen.all == ["first", "second"])
    }

    @Test("different overlapping filters are refused, disjoint ones accepted")
    func overlappingRefused() throws {
        let dispatcher = MQTTDispatcher(bufferLimit: 64, matches: MQTTClient.matches)
        try dispatcher.add(filter: "quad/+/status/#") { _ in }
        #expect(throws: MQTTError.overlappingFilters("quad/d/status/nav", existing: "quad/+/status/#")) {
            try dispatcher.add(filter: "quad/d/status/nav") { _ in }
        }
        try dispatcher.add(filter: "quad/+/target") { _ in }
        try dispatcher.add(filter: "quad/+/pilot/#") { _ in }
    }

    @Test("overlap table", arguments: [
        ("a/b", "a/b", true), ("a/+", "a/b", true), ("a/#", "a", true), ("a/#", "a/b/c", true), ("#", "x/y", true),
        ("a/b", "a/c", false), ("a", "a/b", false), ("a/+/c", "a/b/+", true), ("a/+", "a/b/c", false),
        ("$share/g/a/#", "a/b", true), ("quad/+/telemetry/#", "quad/+/status/#", false),
    ])
    func overlapTable(a: String, b: String, overlaps: Bool) {
        #expect(MQTTDispatcher.overlap(a, b) == overlaps)
        #expect(MQTTDispatcher.overlap(b, a) == overlaps)
    }

    @Test("overflow drops the oldest and counts it, never silently")
    func overflowCounted() async throws {
        let dispatcher = MQTTDispatcher(bufferLimit: 4, matches: MQTTClient.matches)
        let gate = Mutex(true)
        let seen = Seen()
        try dispatcher.add(filter: "t") { message in
            // Holds one pool thread until the test opens the gate; bounded, so a starved test body cannot turn
            // this into a hang of the whole test process.
            let deadline = Date().addingTimeInterval(120)
            while gate.withLock({ $0 }), Date() < deadline { usleep(1_000) }
            seen.add(String(decoding: message.payload, as: UTF8.self))
        }
        dispatcher.receive(MQTTMessage(topic: "t", payload: Array("0".utf8)))
        try await Task.sleep(for: .milliseconds(100))   // the handler now holds message 0
        for i in 1...10 { dispatcher.receive(MQTTMessage(topic: "t", payload: Array("\(i)".utf8))) }
        gate.withLock { $0 = false }
        dispatcher.finish()
        await dispatcher.drained()
        #expect(dispatcher.droppedCount == 6)
        #expect(seen.all == ["0", "7", "8", "9", "10"])
    }
}
