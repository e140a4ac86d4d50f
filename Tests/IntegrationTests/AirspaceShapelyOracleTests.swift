import Airspace
import Foundation
import Navigation
import ProcessSupport
import Randomness
import Testing

/// Airspace's point-in-polygon and distance to a zone's edge against shapely (GEOS), on random polygons (convex,
/// concave, with holes) around Berlin, at 60° and across the antimeridian: the edge definition is straight lines in
/// the airspace's tangent plane, so shapely gets the vertices and points in that plane's metres.
@Suite struct AirspaceShapelyOracleTests {
    static let cases = 300
    static let pointsPerCase = 40

    @Test("point-in-polygon and distance to the edge agree with shapely within 1 µm",
          .enabled(if: PythonTools.available))
    func agreesWithShapely() throws {
        let python = try PythonTools.requirePython()
        let directory = try TestEnvironment.temporaryDirectory("airspace-oracle")
        defer { TestEnvironment.removeTemporaryDirectory(directory) }
        var rng = SplitMix64(seed: 3806)
        let origins = [GeoPoint(latitudeDeg: 52.5, longitudeDeg: 13.4), GeoPoint(latitudeDeg: 60, longitudeDeg: -70),
                       GeoPoint(latitudeDeg: 10, longitudeDeg: 180)]
        var input: [[String: Any]] = []
        var ours: [(inside: Bool, distanceM: Double)] = []
        for index in 0..<Self.cases {
            let plane = LocalTangentPlane(origin: origins[index % origins.count])
            let geo = { (p: (Double, Double)) in plane.point(.init(eastM: p.0, northM: p.1)) }
            let count = Int.random(in: 4...30, using: &rng)
            let concave = Bool.random(using: &rng)
            let outer = (0..<count).map { i -> (Double, Double) in
                let a = 2 * Double.pi * (Double(i) + Double.random(in: 0...0.8, using: &rng)) / Double(count)
                let r = 500 * (concave ? Double.random(in: 0.5...1, using: &rng) : 1)
                return (r * cos(a), r * sin(a))
            }
            let holes = Bool.random(using: &rng) ? [[(-100.0, -100.0), (-100, 100), (100, 100), (100, -100)]] : []
            let zone = Zone(name: "z", kind: .keepOut, shape: .polygon(outer: outer.map(geo), holes: holes.map {
                $0.map(geo)
            }))
            let airspace = try Airspace(zones: [zone], ceilingM: 100, marginM: 0)
            let flat = { (g: GeoPoint) -> [Double] in
                let m = airspace.plane.metres(g)
                return [m.eastM, m.northM]
            }
            let points = (0..<Self.pointsPerCase).map { _ in
                geo((Double.random(in: -600...600, using: &rng), Double.random(in: -600...600, using: &rng)))
            }
            guard case let .polygon(outerGeo, holesGeo) = zone.shape else { continue }
            input.append(["rings": ([outerGeo] + holesGeo).map { $0.map(flat) }, "points": points.map(flat)])
            ours += points.map { (airspace.violation($0) != nil, airspace.distanceToEdgeM(from: $0, zone: 0)) }
        }
        let file = directory.appendingPathComponent("cases.json")
        try JSONSerialization.data(withJSONObject: input).write(to: file)
        let script = TestEnvironment.repoRoot.appendingPathComponent("Tests/IntegrationTests/AirspaceOracle")
            .appendingPathComponent("shapely_oracle.py")
        let child = try ChildProcess(executable: python, arguments: [script.path, file.path], logDirectory: directory)
        let status = child.waitForExit(timeout: .seconds(120))
        let output = child.output()
        try #require(status == 0, "\(output.suffix(2000))")
        let lines = output.split(separator: "\n").filter { !$0.hasPrefix("shapely-oracle") }
        try #require(lines.count == ours.count)
        var worstM = 0.0
        for (line, mine) in zip(lines, ours) {
            let fields = line.split(separator: " ")
            let inside = fields[0] == "1", distanceM = Double(fields[1]) ?? .nan
            worstM = max(worstM, abs(distanceM - mine.distanceM))
            // On the edge itself either answer is right.
            if distanceM > 1e-6 { #expect(inside == mine.inside, "\(line) vs \(mine)") }
        }
        #expect(worstM < 1e-6)
        print("airspace shapely oracle: \(lines.count) points, worst distance difference \(worstM) m")
    }
}
