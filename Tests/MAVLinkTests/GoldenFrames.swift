#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `Fixtures/golden-frames.txt`: frames packed by pymavlink (`generate_golden_frames.py`), by name.
enum GoldenFrames {
    static let all: [String: [UInt8]] = {
        let url = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures/golden-frames.txt")
        guard let data = try? Data(contentsOf: url) else { return [:] }
        var frames: [String: [UInt8]] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2 else { continue }
            let hex = Array(parts[1].utf8)
            frames[String(parts[0])] = stride(from: 0, to: hex.count - 1, by: 2).compactMap {
                UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16)
            }
        }
        return frames
    }()

    static func bytes(_ name: String) -> [UInt8] { all[name] ?? [] }
}
