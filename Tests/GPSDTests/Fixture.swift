#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The recorded gpsd session `gpsd-walk.jsonl` stays with the walk it was made from (and the follow tests that
/// replay it) in Tests/GroundStationTests/Fixtures/; located via #filePath, no bundle resources.
enum Fixture {
    static let directory = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../GroundStationTests/Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appending(path: name)))
    }

    static func lines(_ name: String) throws -> [String] {
        String(decoding: try bytes(name), as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
    }
}
