import ArgumentParser
import FlightLog
import QuadProtocol
import QuadService

struct TailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tail",
        abstract: "Print messages live, one line each, decoded.",
        discussion: """
            Human form: `HH:MM:SS.mmm (UTC) topic type key=value…`; with --json one object per line: \
            {"topic":…,"receive_time_us":…,"type":…,<fields>}. Status payloads show their JSON state, other \
            text its text, undecodable payloads the codec's reason. Standard output is written per line. \
            Without --drone every drone's messages are shown; --drone ID (the flag, not QUAD_DRONE) shows only \
            quad/ID/….
            """)

    @OptionGroup var common: CommonOptions

    @Flag(help: "One JSON object per line.")
    var json = false

    @Option(help: "Topic filter to watch; with --drone narrowed to that drone (quad/+/… → quad/<drone>/…).")
    var topic = Topics.everything

    func validate() throws {
        if let drone = common.drone, let id = DroneID(rawValue: drone), Topics.restricting(topic, to: id) == nil {
            throw ValidationError("--topic '\(topic)' cannot be narrowed to --drone \(drone): use quad/+/… or "
                                  + "quad/\(drone)/…")
        }
    }

    func run() async throws {
        let options = try common.resolve()
        // Only an explicit --drone narrows (QUAD_DRONE in a shared env file must not hide the fleet).
        let filter = common.drone == nil ? topic : Topics.restricting(topic, to: options.drone) ?? topic
        let client = try PlainClient.make(options, role: "tail")
        // One filter: its own sequence keeps the connection's order.
        let messages = try client.subscribe(filter, qos: 1, bufferLimit: 65536)
        try client.start()
        var reportedDrops = 0
        for await message in messages {
            let record: LogRecord
            do {
                record = try LogRecord(receiveTimeUs: WallClock.nowUs(), topic: message.topic,
                                       payload: message.payload, retain: message.retain,
                                       qos: UInt8(clamping: max(0, message.qos)))
            } catch {
                FileBytes.writeStandardError("warning: skipped a message on \(message.topic.prefix(200)): \(error)\n")
                continue
            }
            let entry = DecodedLogEntry(record: record)
            let dropped = messages.droppedCount + client.droppedUnread
            if dropped > reportedDrops {
                reportedDrops = dropped
                FileBytes.writeStandardError("warning: \(reportedDrops) messages dropped so far (output too slow)\n")
            }
            try FileBytes.writeStandardOutput((json ? TailLine.json(entry) : TailLine.human(entry)) + "\n")
        }
    }
}
