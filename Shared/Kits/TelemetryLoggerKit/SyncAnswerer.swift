import FlightLog
import Logging
import LogSync
import QuadMQTT
import QuadProtocol
import QuadService

/// `record --answer-sync` (the board): answers `log/sync/request` from the log files this logger writes, one
/// request at a time on its own task (reading a file never holds up recording). Requests wait in a bounded
/// queue (`requestBuffer`; beyond it the oldest are dropped and the requester asks again after its timeout).
struct SyncAnswerer {
    static let requestBuffer = 16
    /// A chunk the client cannot queue (offline, window full) is retried this long, then the answer is abandoned.
    static let publishPatienceMs = 10_000

    let directory: String
    let client: any MQTTConnection
    let logger: Logger
    /// Requests for other drones are another logger's (`--drones`, `--shard`): not answered here.
    var drones: DroneSelection = .all
    var limits = SyncAnswer.Limits()

    /// The filter requests arrive on: every drone's, or one drone's with `--drone`.
    static func requestFilter(drone: DroneID?) -> String {
        drone.map { Topics.logSyncRequest.topic(for: $0) } ?? Topics.logSyncRequest.anyDroneFilter
    }

    func run(_ requests: MQTTSubscription) async {
        var rejections = RejectionCounter()
        for await message in requests {
            guard let drone = DroneID(topic: message.topic), drones.includes(drone) else { continue }
            let request: SyncRequest
            do { request = try SyncRequest(decoding: message.payload) } catch {
                rejections.record("sync-request", reason: "\(error)", topic: message.topic, logger: logger)
                continue
            }
            let responses = answer(request, drone: drone)
            let topic = Topics.logSyncResponse(drone: drone, requester: request.requester)
            var sent = 0
            for response in responses {
                guard await publish(response.encoded(), topic: topic) else { break }
                sent += 1
            }
            let count = responses.reduce(0) { $0 + $1.records.count }
            let truncated = responses.first?.status == .truncated ? " (truncated)" : ""
            let text = "sync: answered request \(request.id) from \(request.requester) with \(count) record(s) in "
                + "\(sent) of \(responses.count) chunk(s)\(truncated)"
            logger.info("\(text)")
        }
    }

    /// Reads the candidate files one after the other and keeps only the requested records.
    func answer(_ request: SyncRequest, drone: DroneID) -> [SyncResponse] {
        var answer = SyncAnswer(request: request, drone: drone, limits: limits)
        let files = FileBytes.directoryEntries(directory).compactMap { name -> SyncArchive.File? in
            let path = directory + "/" + name
            return FileBytes.modificationTime(path).map { SyncArchive.File(path: path, lastWrite: $0) }
        }
        for path in SyncArchive.candidates(files, drone: drone, window: answer.window) {
            guard let bytes = try? FileBytes.read(path, limit: LoadedLog.maxFileBytes) else { continue }
            let reader = (try? LogReader(bytes: bytes)) ?? LogReader(recordBytes: bytes)
            for case .record(let record, _) in reader { answer.offer(record) }
        }
        return answer.responses()
    }

    /// QoS 1, waiting while the client's queue is full or the connection is down (bounded).
    private func publish(_ payload: [UInt8], topic: String) async -> Bool {
        let deadline = MonotonicClock.nowUs() + Int64(Self.publishPatienceMs) * 1000
        while true {
            do {
                try client.publish(topic: topic, payload: payload, qos: Topics.logSyncResponse.qos.rawValue,
                    retain: false)
                return true
            } catch .offlineQueueFull, .notConnected {
                guard MonotonicClock.nowUs() < deadline, !Task.isCancelled else { break }
                try? await Task.sleep(for: .milliseconds(20))
            } catch {
                logger.warning("sync: cannot publish on \(topic): \(error)")
                return false
            }
        }
        logger.warning("sync: gave up publishing on \(topic) after \(Self.publishPatienceMs) ms")
        return false
    }
}
