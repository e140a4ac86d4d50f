import FlightLog
import QuadProtocol
import QuadService
import Testing
@testable import TelemetryLoggerKit

struct ExportCommandTests {
    /// `export --drone nobody` wrote a header-only file and exited 0: now it fails and names the drones it found.
    @Test func aDroneWithNoMessagesIsAnError() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/drone1-x.qlog"
        let record = try LogRecord(receiveTimeUs: 2_000, topic: "quad/drone1/telemetry/drone", payload: [1],
                                   retain: false, qos: 0)
        try FileBytes.write(path, try LogFileHeader(createdUs: 1_000).encoded() + record.encoded())
        let out = directory.path + "/out.csv"
        let command = try ExportCommand.parse([path, "--format", "csv", "--drone", "nobody", "--out", out])
        #expect(throws: LoggerError.noRecordsForDrone(drone: "nobody", logs: [path], seen: ["drone1"])) {
            try command.run()
        }
        #expect(!FileBytes.directoryEntries(directory.path).contains("out.csv"), "nothing written")
    }

    @Test func arrivalRadiusIsForSvgOnly() throws {
        #expect(throws: (any Error).self) {
            try ExportCommand.parse(["x.qlog", "--format", "csv", "--arrival-radius", "2"])
        }
        #expect(try ExportCommand.parse(["x.qlog", "--format", "svg", "--arrival-radius", "2"]).arrivalRadius == 2)
    }
}
