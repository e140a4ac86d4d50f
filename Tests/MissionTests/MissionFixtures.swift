import Clocks
import Foundation
import Mission
import Navigation

/// Fixture files beside this file (`Fixtures/`), and the plans the tests share.
enum MissionFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    /// `QUAD_WRITE_MISSION_FIXTURES=1` rewrites the golden `.hex` files from the samples (after a deliberate change).
    static let rewriting = ProcessInfo.processInfo.environment["QUAD_WRITE_MISSION_FIXTURES"] == "1"

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// `Fixtures/<name>.hex`: hex pairs, whitespace ignored, `#` to the end of a line is a comment.
    static func hex(_ name: String) throws -> [UInt8] {
        let text = try String(contentsOf: directory.appendingPathComponent(name + ".hex"), encoding: .utf8)
        return text.split(separator: "\n").flatMap { line in
            (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                .split(separator: " ").compactMap { UInt8($0, radix: 16) }
        }
    }

    static func writeHex(_ name: String, _ bytes: [UInt8], comment: String) throws {
        let rows = stride(from: 0, to: bytes.count, by: 16).map { start in
            bytes[start..<min(start + 16, bytes.count)].map { String(format: "%02X", $0) }.joined(separator: " ")
        }
        let text = "# " + comment + "\n" + rows.joined(separator: "\n") + "\n"
        try text.write(to: directory.appendingPathComponent(name + ".hex"), atomically: true, encoding: .utf8)
    }

    static let home = GeoPoint(latitudeDeg: 52.5145, longitudeDeg: 13.3501)

    static func point(northM: Double, eastM: Double) -> GeoPoint {
        LocalTangentPlane(origin: home).point(.init(eastM: eastM, northM: northM))
    }

    /// Takeoff, a waypoint with a hold, a speed change, a loiter, a waypoint, land in place.
    static let plan = MissionPlan(kinds: [
        .takeoff(altitudeM: 10),
        .waypoint(point(northM: 40, eastM: 0), altitudeM: 12, holdTime: .seconds(5), acceptanceRadiusM: 2),
        .changeSpeed(speedMps: 2.5),
        .loiterTime(point(northM: 40, eastM: 60), altitudeM: 15, time: .seconds(30)),
        .waypoint(point(northM: 0, eastM: 60), altitudeM: 15, holdTime: .zero, acceptanceRadiusM: 1),
        .land(nil),
    ], cruiseSpeedMps: 4, plannedHome: home)

    static let limits = MissionLimits(ceilingM: 50, fenceRadiusM: 200, home: home)

    static let t0 = MonotonicInstant(us: 1_000_000_000)
}
