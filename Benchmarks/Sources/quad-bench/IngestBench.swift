import ProcessSupport
import Foundation

/// Benchmark 4: telemetry-logger `record` and `mosquitto_sub -v > file`, both subscribed to the same stream of
/// DroneState telemetry from the load generator, at rising rates. A rate counts as loss-free for a recorder when
/// it stored every message the generator sent.
struct IngestBench {
    let binDir: String
    let broker: Broker
    let workDirectory: String
    let rates: [Int]
    let seconds: Int

    struct Row: Sendable {
        var offeredRate: Int
        var achievedRate: Int
        var sent: Int
        var loggerRecorded: Int
        var subRecorded: Int
        /// From the generator's first publish until the recorder had its last message, seconds.
        var loggerSeconds: Double?
        var subSeconds: Double?
    }

    func run() async throws -> [Row] {
        var rows: [Row] = []
        for rate in rates {
            rows.append(try await measure(rate: rate))
        }
        return rows
    }

    private func measure(rate: Int) async throws -> Row {
        let directory = "\(workDirectory)/ingest-\(rate)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let count = rate * seconds
        let topic = "quad/ingest/telemetry/drone"
        let logger = try ChildProcess("\(binDir)/telemetry-logger",
                                      ["record", "--broker", broker.address, "--dir", directory],
                                      name: "telemetry-logger", logDirectory: directory)
        let subFile = "\(directory)/mosquitto_sub.out"
        let sub = try ChildProcess(
            Tools.path("mosquitto_sub"),
            ["-h", "127.0.0.1", "-p", "\(broker.port)", "-v", "-t", "quad/ingest/telemetry/#",
             "-C", "\(count)", "-W", "\(seconds * 3 + 15)"],
            name: "mosquitto_sub", logDirectory: directory, stdoutPath: subFile)
        try await Task.sleep(for: .milliseconds(1500))  // both subscribed
        let generator = try ChildProcess(
            Tools.selfExecutable,
            ["loadgen", "--port", "\(broker.port)", "--drone", "ingest", "--rate", "\(rate)", "--count", "\(count)"],
            name: "loadgen", logDirectory: directory)
        // mosquitto_sub exits by itself once it has `count` messages: note when (for its sustained rate).
        var subDoneUs: Int64?
        let deadlineNs = BenchClock.monotonicNs() + Int64(seconds * 3 + 15) * 1_000_000_000
        while BenchClock.monotonicNs() < deadlineNs, generator.isRunning || (subDoneUs == nil && sub.isRunning) {
            if subDoneUs == nil, !sub.isRunning { subDoneUs = BenchClock.wallClockUs() }
            usleep(2_000)
        }
        if subDoneUs == nil, !sub.isRunning { subDoneUs = BenchClock.wallClockUs() }
        generator.stop()
        sub.stop()
        let load = LoadGenerator.summary(from: generator.log())
        try await Task.sleep(for: .seconds(1))
        logger.stop()  // SIGTERM: drains, flushes and fsyncs
        let startUs = load["start_us"].map { Int64($0) }
        let logged = try loggerRecords(directory: directory, topic: topic)
        let subRecorded = Self.occurrences(of: Array((topic + " ").utf8), inFile: subFile)
        let sent = Int(load["sent"] ?? 0)
        return Row(offeredRate: rate, achievedRate: Int(load["rate"] ?? 0), sent: sent, loggerRecorded: logged.count,
                   subRecorded: subRecorded,
                   loggerSeconds: logged.count == sent ? Self.seconds(from: startUs, to: logged.lastReceiveUs) : nil,
                   subSeconds: subRecorded == sent ? Self.seconds(from: startUs, to: subDoneUs) : nil)
    }

    static func seconds(from startUs: Int64?, to endUs: Int64?) -> Double? {
        guard let startUs, let endUs else { return nil }
        return Double(endUs - startUs) / 1e6
    }

    /// Exports the logger's files as JSON lines; counts the records of the stream's topic and finds the last
    /// receive time (the logger's wall clock, µs).
    private func loggerRecords(directory: String, topic: String) throws -> (count: Int, lastReceiveUs: Int64?) {
        let logs = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".qlog") }.map { "\(directory)/\($0)" }
        guard !logs.isEmpty else { return (0, nil) }
        let out = "\(directory)/export.jsonl"
        let export = try ChildProcess("\(binDir)/telemetry-logger", ["export"] + logs
            + ["--format", "jsonl", "--out", out],
                                      name: "export", logDirectory: directory)
        _ = export.waitForExit(timeout: .seconds(120))
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let topicField = "\"topic\":\"\(topic)\""
        let timeField = "\"receive_time_us\":"
        var count = 0
        var lastUs: Int64?
        for line in text.split(separator: "\n") where line.contains(topicField) {
            count += 1
            guard let range = line.range(of: timeField) else { continue }
            let digits = line[range.upperBound...].prefix { $0.isNumber }
            if let us = Int64(digits) { lastUs = max(lastUs ?? us, us) }
        }
        return (count, lastUs)
    }

    /// `mosquitto_sub -v` writes "topic payload\n"; the binary payload may hold newlines, so count the topics.
    static func occurrences(of needle: [UInt8], inFile path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path), !needle.isEmpty else { return 0 }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int in
            let bytes = raw.bindMemory(to: UInt8.self)
            var count = 0
            var index = 0
            let last = bytes.count - needle.count
            while index <= last {
                if bytes[index] == needle[0] {
                    var match = true
                    for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                        match = false
                        break
                    }
                    if match {
                        count += 1
                        index += needle.count
                        continue
                    }
                }
                index += 1
            }
            return count
        }
    }
}
