#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads files from Tests/GroundStationTests/Fixtures/ (located via #filePath, no bundle resources).
enum Fixture {
    static let directory = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appending(path: name)))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }

    static func lines(_ name: String) throws -> [String] {
        try text(name).split(whereSeparator: \.isNewline).map(String.init)
    }
}
