#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the committed `.hex` fixtures (hex byte pairs, `#` comment lines) next to this file.
enum Fixture {
    static let directory = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        let data = try Data(contentsOf: directory.appending(path: name))
        let text = String(decoding: data, as: UTF8.self)
        var bytes: [UInt8] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            for token in line.split(separator: " ") {
                guard let byte = UInt8(token, radix: 16) else { throw FixtureError.badToken(String(token)) }
                bytes.append(byte)
            }
        }
        return bytes
    }

    enum FixtureError: Error {
        case badToken(String)
    }
}
