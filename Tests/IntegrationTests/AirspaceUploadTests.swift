import Foundation
import Navigation
import ProcessSupport
import QuadProtocol
import Testing

/// Issue 38, part 1, with the real executables: a GeoJSON keep-out zone uploaded through `location-broadcaster
/// airspace upload`, its checksum shown beside the board's, kept across a restart of drone-controller, a target
/// inside it refused with the zone's name, and a broken file refused with exit 65 before anything is sent.
@Suite("airspace upload, show, restart and refusal", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto")))
struct AirspaceUploadTests {
    /// A closed GeoJSON square of `sideM` around `centre`, named, keep-out; `crossed` swaps two corners (a bow tie).
    /// The airborne track's closest approach to the square `geoJSON` builds around `centre`, metres: negative once
    /// inside (by how deep), -1 without an airborne row. The square is aligned north/east around its centre.
    static func closestApproachM(_ trace: [TraceRow], toSquareAround centre: GeoPoint, sideM: Double) -> Double {
        let plane = LocalTangentPlane(origin: centre)
        let half = sideM / 2
        return trace.filter(\.isAirborne).map { row -> Double in
            let m = plane.metres(row.position)
            let dx = max(abs(m.eastM) - half, 0), dy = max(abs(m.northM) - half, 0)
            return abs(m.eastM) < half && abs(m.northM) < half ? -min(half - abs(m.eastM), half - abs(m.northM))
                : (dx * dx + dy * dy).squareRoot()
        }.min() ?? -1
    }

    static func geoJSON(name: String, around centre: GeoPoint, sideM: Double, crossed: Bool = false) -> String {
        let half = sideM / 2
        var corners = [(-half, -half), (-half, half), (half, half), (half, -half)].map { north, east in
            Geodesy.destination(from: Geodesy.destination(from: centre, bearingDeg: 0, distanceM: north),
                                bearingDeg: 90, distanceM: east)
        }
        if crossed { corners.swapAt(1, 2) }
        let ring = (corners + [corners[0]]).map { "[\($0.longitudeDeg), \($0.latitudeDeg)]" }.joined(separator: ", ")
        return """
            {"type": "FeatureCollection", "features": [{"type": "Feature",
              "properties": {"name": "\(name)", "keep_out": true},
              "geometry": {"type": "Polygon", "coordinates": [[\(ring)]]}}]}
            """
    }

    @Test("upload, show, restart, a target in the zone refused by name; a broken file exits 65")
    func uploadShowRestartRefuse() async throws {
        let stack = try FlightStack(drone: "air1")
        defer { stack.stop() }
        try await stack.waitUntilReady()
        let directory = stack.broker.directory
        let pondCentre = stack.target(bearingDeg: 0, distanceM: 40)
        let zones = directory.appendingPathComponent("zones.geojson")
        try Self.geoJSON(name: "pond", around: pondCentre, sideM: 20)
            .write(to: zones, atomically: true, encoding: .utf8)
        func broadcaster(_ arguments: [String]) async throws -> (code: Int32, output: String) {
            try await runToEnd("location-broadcaster", stack.groundCommon + arguments, logDirectory: directory)
        }

        let upload = try await broadcaster(["airspace", "upload", zones.path, "--ceiling", "40", "--timeout", "30"])
        #expect(upload.code == 0, "\(upload.output)\n\(stack.logs())")
        let words = upload.output.split(whereSeparator: \.isWhitespace)
        let checksum = try #require(words.first { $0.hasPrefix("0x") }.map(String.init),
                                    "\(upload.output)")
        #expect(upload.output.contains("drone-controller holds airspace \(checksum) (1 zones)"), "\(upload.output)")

        let shown = try await broadcaster(["airspace", "show", zones.path, "--ceiling", "40"])
        #expect(shown.code == 0, "\(shown.output)")
        #expect(shown.output.contains("board: \(checksum) (1 zones)"), "\(shown.output)")
        #expect(shown.output.contains("file:  \(checksum) (1 zones)") && shown.output.contains("the same"),
                "\(shown.output)")

        // A restart reloads the stored airspace from the state directory.
        stack.process("drone-controller")?.stop()
        try stack.start("drone-controller", [])
        try await stack.waitUntilReady()
        #expect(stack.process("drone-controller")?.output().contains("airspace \(checksum) restored") == true,
                "\(stack.logs())")
        let again = try await broadcaster(["airspace", "show", zones.path, "--ceiling", "40"])
        #expect(again.code == 0 && again.output.contains("board: \(checksum) (1 zones)"), "\(again.output)")

        let refused = try await broadcaster(["target", "\(pondCentre.latitudeDeg)", "\(pondCentre.longitudeDeg)",
                                             "--timeout", "30"])
        #expect(refused.code == 1, "\(refused.output)")
        #expect(refused.output.contains("target refused by the controller: target-refused-keep-out: zone 'pond' "
            + "(inside keep-out zone)"), "\(refused.output)\n\(stack.logs())")

        // A bow tie: refused where it is broken, exit 65, nothing sent (the board keeps what it had).
        let broken = directory.appendingPathComponent("broken.geojson")
        try Self.geoJSON(name: "bowtie", around: pondCentre, sideM: 20, crossed: true)
            .write(to: broken, atomically: true, encoding: .utf8)
        let bad = try await broadcaster(["airspace", "upload", broken.path, "--timeout", "5"])
        #expect(bad.code == 65, "\(bad.output)")
        #expect(bad.output.contains("zone 'bowtie' outer boundary intersects itself"), "\(bad.output)")
        #expect(bad.output.contains("nothing sent"), "\(bad.output)")
        let after = try await broadcaster(["airspace", "show"])
        #expect(after.output.contains("board: \(checksum) (1 zones)"), "\(after.output)")
        #expect(!after.output.contains("refused upload"), "\(after.output)")

        // A limit no airspace can have is a usage error (64), before the file is read.
        for flags in [["--margin", "-1"], ["--ceiling", "0"], ["--floor", "50", "--ceiling", "40"]] {
            let usage = try await broadcaster(["airspace", "upload", zones.path] + flags)
            #expect(usage.code == 64, "\(flags): \(usage.output)")
        }

        // `clear`: the board holds no zone, and the pond is a target like any other (the restart keeps that too).
        let cleared = try await broadcaster(["airspace", "clear", "--timeout", "30"])
        #expect(cleared.code == 0, "\(cleared.output)\n\(stack.logs())")
        #expect(cleared.output.contains("(0 zones)"), "\(cleared.output)")
        stack.process("drone-controller")?.stop()
        try stack.start("drone-controller", [])
        try await stack.waitUntilReady()
        let none = try await broadcaster(["airspace", "show"])
        #expect(none.output.contains("(0 zones)"), "\(none.output)")
        let flown = try await broadcaster(["target", "\(pondCentre.latitudeDeg)", "\(pondCentre.longitudeDeg)",
                                           "--timeout", "30"])
        #expect(flown.code == 0, "\(flown.output)\n\(stack.logs())")
    }
}
