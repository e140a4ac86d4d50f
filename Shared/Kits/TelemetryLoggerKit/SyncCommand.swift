import ArgumentParser
import CommandLineSupport
import FlightLog
import LogSync
import QuadMQTT
import QuadProtocol
import QuadService
#if canImport(Glibc)
import Glibc
#endif

struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: """
            Complete finished logs from the board's logger: ask for the telemetry missing from them, merge it in.
            """,
        discussion: """
            For each log (the files given, and with --log-dir every <drone>-*.qlog there), finds the gaps in each \
            telemetry topic's sequence numbers, asks the board's logger (`record --answer-sync`) for them on \
            quad/<drone>/log/sync/request and rewrites the file with the answers in place, marked recovered \
            (atomically: a temporary file renamed over it). Records already in the log are never added again. \
            A file `record` is still writing is skipped (it completes itself). Exit 0: nothing missing any more; \
            1: no answer (the board's logger down or the bridge cut), or an error; 65: the board answered but its \
            log lacks some of the missing records too (listed). --dry-run: 0 when nothing is missing, 65 when \
            something is (listed), so a script can ask whether a sync is needed.
            """)

    @OptionGroup var common: CommonOptions

    @Argument(help: "The .qlog file(s) to complete.")
    var logs: [String] = []

    @Option(help: "Also every finished log of --drone in this directory.")
    var logDir: String?

    @Option(parsing: .signedNumber, help: "Wait this long for an answer (and between its chunks), ms; asked 3 times.")
    var timeoutMs = 5000

    @Flag(help: "Only list what is missing; do not connect. Exit 65 when something is missing.")
    var dryRun = false

    func validate() throws {
        guard (100...600_000).contains(timeoutMs) else { throw ValidationError("--timeout-ms: expected 100…600000") }
        guard !logs.isEmpty || logDir != nil else { throw ValidationError("give the log file(s) or --log-dir DIR") }
    }

    func run() async throws {
        let options = try common.resolve()
        let drone = options.drone
        var paths = logs
        if let logDir {
            let prefix = "\(drone.rawValue)-"
            paths += FileBytes.directoryEntries(logDir)
                .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".\(LogFileNaming.fileExtension)") }
                .sorted().map { logDir + "/" + $0 }
        }
        let requester = "sync-\(getpid())"
        var connection: (client: any MQTTConnection, inbox: Inbox<SyncEvent>)?
        defer {
            connection?.inbox.finish()
            connection?.client.shutdown()
        }
        var outcome = Outcome()
        for path in paths {
            guard let lock = FileBytes.tryLock(path) else {
                FileBytes.writeStandardError("\(path): skipped: being recorded (record completes it by itself)\n")
                continue
            }
            defer { close(lock) }
            let log = try LoadedLog(path: path)
            guard let header = log.header else {
                throw LoggerError.notAFlightLog(path: path, reason: "damaged file header; not rewritten (see recover)")
            }
            let missing = GapWatch.missingRanges(in: log.contents.records).filter { $0.drone == drone }
            guard !missing.isEmpty else {
                try FileBytes.writeStandardOutput("\(path): nothing missing\n")
                continue
            }
            let total = missing.reduce(0) { $0 + $1.count }
            try FileBytes.writeStandardOutput("\(path): \(total) record(s) missing in \(missing.count) range(s)\n")
            if dryRun {
                for range in missing { try FileBytes.writeStandardOutput("  \(range.summary)\n") }
                outcome.stillMissing += total
                continue
            }
            if connection == nil { connection = try await connect(options, requester: requester) }
            guard let connection else { continue }
            let session = try await exchange(missing, requester: requester, client: connection.client,
                                             inbox: connection.inbox)
            outcome.add(session)
            let recovered = session.recoveredRecords
            if !recovered.isEmpty {
                var bytes = header.encoded()
                for record in RecoveredOrder.inReceiveOrder(log.contents.records + recovered) {
                    bytes += record.encoded()
                }
                try FileBytes.replace(path, with: bytes)
            }
            try report(path: path, session.state, recovered: recovered.count)
        }
        if outcome.asked > 0, outcome.answered == 0 {
            throw LoggerError.noSyncAnswer(drone: drone.rawValue, topic: Topics.logSyncRequest.topic(for: drone),
                                           attempts: SyncLimits().maxAttempts, timeoutMs: timeoutMs)
        }
        if outcome.stillMissing > 0 { throw ExitStatus.completedWithDamage }
    }

    private struct Outcome {
        var asked = 0
        var answered = 0
        var stillMissing = 0

        mutating func add(_ exchange: Exchange) {
            asked += exchange.state.requestsSent
            answered += exchange.state.requestsAnswered
            stillMissing += (exchange.state.unavailable + exchange.state.unanswered + exchange.state.waitingRanges)
                .reduce(0) { $0 + $1.count }
        }
    }

    private struct Exchange {
        var state: SyncSession
        var recoveredRecords: [LogRecord]
    }

    /// What the request loop takes from its inbox: an answer, or its 50 ms tick (time to ask again or give up).
    enum SyncEvent: Sendable {
        case response([UInt8])
        case tick
    }

    /// Connected and subscribed to this run's answers (the SUBACK back before the first request goes out); the
    /// inbox ticks every 50 ms from then on.
    private func connect(_ options: CommonOptions.Resolved, requester: String) async throws
        -> (client: any MQTTConnection, inbox: Inbox<SyncEvent>) {
        let client = try PlainClient.make(options, role: "sync")
        let inbox = Inbox<SyncEvent>()
        try inbox.feed(client, filter: Topics.logSyncResponse(drone: options.drone, requester: requester),
                       qos: 1) { message, _ in .response(message.payload) }
        try client.start()
        guard await client.waitUntilConnected(timeout: .seconds(10)) else {
            client.shutdown()
            throw LoggerError.badOption("cannot connect to the broker at \(options.brokerList)")
        }
        // Subscriptions are made on CONNACK; give the SUBACK a moment so a quick answer is not missed.
        try await Task.sleep(for: .milliseconds(200))
        inbox.tick(every: .milliseconds(50)) { _ in .tick }
        return (client, inbox)
    }

    /// The request/response loop for one file's gaps, until every range is answered or given up.
    private func exchange(_ missing: [MissingRange], requester: String, client: any MQTTConnection,
                          inbox: Inbox<SyncEvent>) async throws -> Exchange {
        var session = SyncSession(requester: requester,
                                  limits: SyncLimits(responseTimeout: .milliseconds(timeoutMs)),
                                  firstRequestId: UInt32.random(in: 1...UInt32.max / 2))
        session.add(missing, now: MonotonicClock.now())
        var recovered: [LogRecord] = []
        var events = inbox.events.makeAsyncIterator()
        while !session.isIdle {
            for outgoing in session.poll(now: MonotonicClock.now()) {
                let payload = try outgoing.request.encoded()
                // A refused publish (offline) is a request without answer: the session times it out and asks again.
                _ = try? client.publish(topic: Topics.logSyncRequest.topic(for: outgoing.drone), payload: payload,
                                        qos: Topics.logSyncRequest.qos.rawValue, retain: false)
            }
            // An answer, or at most 50 ms later the tick: either way the session is polled again.
            guard let event = await events.next() else { break }
            guard case .response(let payload) = event else { continue }
            let receipt = session.receive(payload, now: MonotonicClock.now())
            recovered += receipt.records
            for rejection in receipt.rejections {
                FileBytes.writeStandardError("warning: sync: rejected: \(rejection)\n")
            }
        }
        return Exchange(state: session, recoveredRecords: recovered)
    }

    private func report(path: String, _ session: SyncSession, recovered: Int) throws {
        var text = "\(path): recovered \(recovered) record(s) from the board"
        if session.rejectedTotal > 0 {
            text += ", rejected \(session.rejectedTotal) (" + session.rejected.sorted { $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
        text += "\n"
        for range in session.unavailable {
            text += "  still missing (not in the board's log either): \(range.summary)\n"
        }
        for range in session.unanswered { text += "  still missing (no answer): \(range.summary)\n" }
        try FileBytes.writeStandardOutput(text)
    }
}
