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
            text its text, undecodable payloads the codec's reason. Standard output is written per line.
            """)

    @OptionGroup var common: CommonOptions

    @Flag(help: "One JSON object per line.")
    var json = false

    @Option(help: "Topic filter to watch.")
    var topic = Topics.everything

    func run() async throws {
        let client = try PlainClient.make(common.resolve(), role: "tail")
        // One filter: its own sequence keeps the connection's order.
        let messages = try client.subscribe(topic, qos: 1, bufferLimit: 65536)
        try client.start()
        var reportedDrops = 0
        for await message in messages {
            let entry = DecodedLogEntry(record: try LogRecord(
                receiveTimeUs: WallClock.nowUs(), topic: message.topic, payload: message.payload,
                retain: message.retain, qos: UInt8(clamping: max(0, message.qos))))
            let dropped = messages.droppedCount + client.droppedUnread
            if dropped > reportedDrops {
                reportedDrops = dropped
                POSIXFile.writeStandardError("warning: \(reportedDrops) messages dropped so far (output too slow)\n")
            }
            try POSIXFile.writeStandardOutput((json ? TailLine.json(entry) : TailLine.human(entry)) + "\n")
        }
    }
}
