import Foundation
import Testing
@testable import FlightLog

struct JSONLExporterTests {
    @Test func everyLineIsOneJSONObjectWithTheEnvelope() throws {
        let entries = SampleFlight.entries()
        let lines = JSONLExporter.export(entries).split(separator: "\n")
        #expect(lines.count == entries.count)
        for (line, entry) in zip(lines, entries) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                "\(line)")
            #expect(object["topic"] as? String == entry.topic)
            #expect((object["receive_time_us"] as? NSNumber)?.int64Value == entry.receiveTimeUs)
            #expect(object["type"] as? String == entry.typeName)
        }
    }

    @Test func messageFieldsComeFromTheCodecJSONView() throws {
        let lines = JSONLExporter.export(SampleFlight.entries()).split(separator: "\n")
        let target = try #require(lines.first { $0.contains("\"type\":\"target\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(target.utf8)) as? [String: Any])
        #expect(object["sender_id"] as? String == SampleFlight.hostileSender)
        // Foundation's JSONSerialization on Linux may round the last digit when parsing; the writer emits the
        // shortest round-trip text (checked in QuadProtocolTests).
        let latitude = try #require(object["latitude_deg"] as? Double)
        #expect(abs(latitude - SampleFlight.target.latitudeDeg) < 1e-12)
    }

    @Test func undecodablePayloadsKeepTheirBytes() throws {
        let lines = JSONLExporter.export(SampleFlight.entries()).split(separator: "\n")
        let line = try #require(lines.first { $0.contains("undecodable") })
        #expect(line.contains("\"payload_base64\":\"/wAB\""))
    }

    @Test(arguments: [([UInt8](), ""), ([0x66], "Zg=="), ([0x66, 0x6F], "Zm8="), ([0x66, 0x6F, 0x6F], "Zm9v"),
                      (Array("foobar".utf8), "Zm9vYmFy")])
    func base64(bytes: [UInt8], expected: String) {
        #expect(Base64.encode(bytes) == expected)
    }
}
