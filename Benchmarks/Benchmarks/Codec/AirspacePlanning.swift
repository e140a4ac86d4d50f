import Airspace
import Foundation
import Navigation

/// Issue 38's planner budget: 20 keep-out zones of 50 vertices each (concave stars, 60–140 m across, in a 5 × 4
/// grid 400 m apart, each shifted), a 5 m margin, a target across the whole field from the start: the plan must wind
/// between them. Deterministic (no random generator), so every run plans the same path.
enum AirspacePlanning {
    static let origin = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)

    static func planner() -> PathPlanner {
        let plane = LocalTangentPlane(origin: origin)
        var zones: [Zone] = []
        for row in 0..<4 {
            for column in 0..<5 {
                let index = row * 5 + column
                let centreE = Double(column) * 400 - 800 + Double((index * 37) % 90) - 45
                let centreN = Double(row) * 400 - 600 + Double((index * 53) % 90) - 45
                let outer = (0..<50).map { i -> GeoPoint in
                    let a = 2 * Double.pi * Double(i) / 50
                    let r = (i % 2 == 0 ? 140.0 : 80.0) + Double((i * 7 + index) % 20)
                    return plane.point(.init(eastM: centreE + r * cos(a), northM: centreN + r * sin(a)))
                }
                zones.append(Zone(name: "zone \(index + 1)", kind: .keepOut, shape: .polygon(outer: outer, holes: [])))
            }
        }
        // swiftlint:disable:next force_try
        let airspace = try! Airspace(zones: zones, ceilingM: 120, marginM: 5)
        return PathPlanner(airspace: airspace)
    }

    static let start = LocalTangentPlane(origin: origin).point(.init(eastM: -1100, northM: -820))
    static let goal = LocalTangentPlane(origin: origin).point(.init(eastM: 1100, northM: 820))
}
