import Clocks
import GroundStation
import QuadProtocol
import Testing

@Suite("Fleet board")
struct FleetBoardTests {
    func drone(_ id: String) -> DroneID { DroneID(rawValue: id)! }

    func cells(_ table: String, _ id: String) -> [String] {
        table.split(separator: "\n").first { $0.hasPrefix(id + " ") }.map { $0.split(separator: " ").map(String.init) }
            ?? []
    }

    @Test("a service not heard from is `wait` for one re-announce period after subscribing, then `?`")
    func waitThenUnknown() {
        var board = FleetBoard()
        board.watchingSince = MonotonicInstant(us: 0)
        board.update(presence: ServicePresence(name: "drone-controller", online: true), drone: drone("d1"),
            receivedAt: .init(us: 0))
        let table = board.render(now: .init(us: 1_000_000))
        #expect(Array(cells(table, "d1").prefix(5)) == ["d1", "wait", "on", "wait", "wait"])
        let after = board.render(now: .init(us: StatusBoard.defaultPresenceWait.us))
        #expect(Array(cells(after, "d1").prefix(5)) == ["d1", "?", "on", "?", "?"])
    }

    @Test("mavlink-link counts as the vehicle link; offline shows OFF; a ground tool's id is not a drone")
    func columns() {
        var board = FleetBoard()
        board.update(presence: ServicePresence(name: "mavlink-link", online: true), drone: drone("px4"),
            receivedAt: .init(us: 0))
        board.update(presence: ServicePresence(name: "navigator", online: false), drone: drone("px4"),
                     receivedAt: .init(us: 0))
        board.update(presence: ServicePresence(name: "telemetry-logger", online: true), drone: drone("ground"),
                     receivedAt: .init(us: 0))
        let table = board.render(now: .init(us: 10_000_000))
        #expect(board.drones == ["px4"])
        #expect(Array(cells(table, "px4").prefix(4)) == ["px4", "on", "?", "OFF"], "\(table)")
        #expect(table.contains("also seen (no board service): ground"))
    }

    @Test("ids from topics are capped, and the cut is said")
    func capped() {
        var board = FleetBoard()
        for n in 0..<(FleetBoard.maxDrones + 6) {
            board.update(presence: ServicePresence(name: "navigator", online: true), drone: drone("d\(n)"),
                receivedAt: .init(us: 0))
        }
        #expect(board.drones.count == FleetBoard.maxDrones)
        #expect(board.droppedDrones == 6)
        #expect(board.render(now: .init(us: 0)).contains("(more than \(FleetBoard.maxDrones) ids: the rest not shown)"))
    }
}
