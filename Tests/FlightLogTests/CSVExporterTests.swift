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
