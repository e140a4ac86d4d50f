import Foundation
import Logging
import QuadMQTT
import Testing

extension FaultInjectionTests {
    static let fuzzCount = 100_000
    static let fuzzOverS = 15.0

    /// Which rejection kind each service logs for a fuzzed topic (the kinds of their RejectionCounter).
    static let rejectionKinds: [String: [String: String]] = [
        "drone-controller": ["target": "target", "command": "command", "pilot/claim": "claim",
                             "telemetry/drone": "drone-state", "telemetry/position": "position",
                             "telemetry/navigation": "navigation", "status/fuzzer": "presence",
                             "ground/beacon": "beacon"],
        "navigator": ["target": "target", "telemetry/position": "position", "telemetry/drone": "drone-state",
                      "telemetry/controller": "controller-state"],
        "drone-link": ["flight/command": "flight-command"],
    ]

    @Test("10⁵ invalid payloads on every subscribed topic mid-flight: nothing crashes, each is counted, it arrives")
    func fuzzedBus() async throws {
        try await FlightSlots.run {
            let fixtures = TestEnvironment.repoRoot.appendingPathComponent("Tests/QuadProtocolTests/Fixtures")
            let corpus = try FuzzCorpus(seed: 0x5EED_F00D, count: Self.fuzzCount, fixtures: fixtures)
            let flight = try await FaultFlight()
            defer { flight.stop() }
            var logger = Logger(label: "test.fuzzer")
            logger.logLevel = .warning
            let fuzzer = try MQTTClient(configuration: .init(port: Int32(flight.stack.broker.port), clientId: "fuzzer"),
                                        logger: logger)
            defer { fuzzer.shutdown() }
            try fuzzer.start()
            try #require(await fuzzer.waitUntilConnected(timeout: TestEnvironment.readinessTimeout))

            try await flight.takeOff()
            let target = flight.target(bearingDeg: 200, distanceM: 35)
            try flight.fly(to: target)
            try await flight.waitForRow("flying", timeoutS: TestEnvironment.flightPhaseTimeoutS) { $0.pcmdFlag == 1 }
            let topics = corpus.lanes.map { "quad/\(flight.stack.drone)/\($0.path)" }
            let startS = FaultFlight.monotonicS()
            let (sent, failed) = await Self.publish(corpus, topics: topics, with: fuzzer, overS: Self.fuzzOverS)
            let tookS = FaultFlight.monotonicS() - startS
            #expect(sent == Self.fuzzCount && failed == 0, "sent \(sent), refused by the client \(failed)")
            // How fast the test's own fuzzer published is a figure, not the product's behaviour (a loaded machine
            // slows the test process too): printed.
            Self.measured("fuzz", "10⁵ payloads published in \(tookS) s (paced over \(Self.fuzzOverS) s)")

            try await flight.waitArrived(at: target)
            let dead = flight.stack.processes.filter { !$0.value.isRunning }.map(\.key)
            #expect(dead.isEmpty, "died under fuzzing: \(dead)\n\(flight.logs())")
            try await flight.land()
            flight.expectInsideGeofence()

            // Graceful stops (exit 0) log each service's totals; every fuzzed message is a rejection of its kind
            // unless it was dropped unread (a consumer falling behind), which is counted too.
            var perTopic: [String: Int] = [:]
            for message in corpus.messages { perTopic[corpus.lanes[message.lane].path, default: 0] += 1 }
            for (service, kinds) in Self.rejectionKinds.sorted(by: { $0.key < $1.key }) {
                let process = try #require(flight.stack.process(service))
                #expect(process.stop(signal: SIGTERM, timeout: .seconds(10)) == 0,
                    "\(service)\n\(process.output().suffix(2000))")
                let summary = try #require(RejectionSummary(log: process.output()), "\(service): no totals logged")
                let progress = process.output().split(separator: "\n")
                    .filter { $0.contains("so far)") || $0.contains("rejected flight command #") }
                #expect(progress.count >= 5, "\(service) logged \(progress.count) rejection progress lines")
                for (path, kind) in kinds {
                    let sentHere = perTopic[path, default: 0]
                    let rejected = summary.counts[kind, default: 0]
                    #expect((sentHere - summary.droppedUnread...sentHere + 20).contains(rejected),
                            """
                                \(service): \(kind) rejected \(rejected) of \(sentHere) sent on \(path) (dropped \
                                unread \(summary.droppedUnread))
                                """)
                }
                print(
                    """
                        fuzz: \(service) rejected \(summary.total) (\(summary.counts.sorted { $0.key < $1.key })), \
                        dropped unread \(summary.droppedUnread)
                        """)
            }
            print(
                """
                    fuzz: \(sent) payloads in \(tookS) s, \(corpus.skippedValid) valid candidates left out, per topic \
                    \(perTopic.sorted { $0.key < $1.key })
                    """)
        }
    }

    /// Publishes every corpus message (QoS 0) in batches spread over `overS` seconds.
    static func publish(_ corpus: FuzzCorpus, topics: [String], with client: MQTTClient,
                        overS: Double) async -> (sent: Int, failed: Int) {
        let batch = 100
        let batches = max(1, corpus.messages.count / batch)
        var next = FaultFlight.monotonicS()
        var sent = 0
        var failed = 0
        for start in stride(from: 0, to: corpus.messages.count, by: batch) {
            for message in corpus.messages[start..<min(start + batch, corpus.messages.count)] {
                do {
                    try client.publish(topic: topics[message.lane], payload: message.payload, qos: 0, retain: false)
                    sent += 1
                } catch {
                    failed += 1
                }
            }
            next += overS / Double(batches)
            let waitS = next - FaultFlight.monotonicS()
            if waitS > 0 { try? await Task.sleep(for: .microseconds(Int(waitS * 1e6))) }
        }
        return (sent, failed)
    }
}

/// A service's shutdown line: `rejected in total: N (kind n, kind n); dropped unread: D`.
struct RejectionSummary {
    var total: Int
    var counts: [String: Int]
    var droppedUnread: Int

    init?(log: String) {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("rejected in total: ") }),
              let totalRange = line.range(of: "rejected in total: "),
              let open = line[totalRange.upperBound...].firstIndex(of: "("),
              let close = line.range(of: "); dropped unread: "),
              let total = Int(line[totalRange.upperBound..<open].trimmingCharacters(in: .whitespaces)),
              let dropped = Int(line[close.upperBound...].trimmingCharacters(in: .whitespaces))
        else { return nil }
        self.total = total
        droppedUnread = dropped
        var counts: [String: Int] = [:]
        for entry in line[line.index(after: open)..<close.lowerBound].split(separator: ",") {
            let parts = entry.split(separator: " ")
            if parts.count == 2, let n = Int(parts[1]) { counts[String(parts[0])] = n }
        }
        self.counts = counts
    }
}
