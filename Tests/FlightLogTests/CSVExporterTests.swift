import QuadProtocol
import Testing
@testable import FlightLog

struct CSVExporterTests {
    @Test func oneRowPerMessageAfterTheHeader() {
        let entries = SampleFlight.entries()
        let csv = CSVExporter.export(entries)
        let lines = csv.split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(lines.first == Substring(CSVExporter.header.joined(separator: ",")))
        #expect(lines.last == "")
        // Quoted fields here hold no line breaks, so lines = rows.
        #expect(lines.count == entries.count + 2)
        #expect(csv.contains(",quad/drone1/telemetry/position,position_fix,"))
        #expect(csv.contains("text=online"))
        #expect(csv.contains(",undecodable,"))
    }

    @Test func positionColumnsHoldCoordinates() throws {
        let csv = CSVExporter.export(SampleFlight.entries())
        let row = try #require(csv.split(separator: "\r\n").first { $0.contains("position_fix") })
        let fields = row.split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields[1] == "2024-05-01T12:34:56.010Z")
        let latitude = try #require(Double(fields[6]))
        #expect(abs(latitude - SampleFlight.origin.latitudeDeg) < 1e-9)
    }

    @Test func linkStatusRowNamesTheAutopilotsLastAnswer() {
        let status = LinkStatus(sequence: 1, timestampUs: 1, connected: true, fallbackHover: false, reason: .ok,
                                navdataPerSecond: 40, checksumErrors: 0, malformedPackets: 0, lastNavdataAgeMs: 1,
                                lastCommandAgeMs: 1, commandAck: .init(command: .takeoff, result: .denied, ageMs: 0))
        #expect(MessageKeyFields.pairs(of: .linkStatus(status)).map { "\($0)=\($1)" }.suffix(2)
            == ["ack_command=takeoff", "ack_result=denied"])
        var plain = status
        plain.commandAck = nil
        #expect(!MessageKeyFields.pairs(of: .linkStatus(plain)).contains { $0.0.hasPrefix("ack") })
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("a,b", "\"a,b\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("two\r\nlines", "\"two\r\nlines\""),
        ("=1+2", "'=1+2"),
        ("-12.5", "-12.5"),
    ])
    func fieldsAreEscaped(raw: String, expected: String) {
        #expect(TextEscaping.csvField(raw) == expected)
    }
}
