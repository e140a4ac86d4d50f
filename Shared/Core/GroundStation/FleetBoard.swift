import Clocks
import QuadProtocol

/// `location-broadcaster status --all`: every drone seen on the broker, one line each — its board services, the
/// controller's activity, battery and link, and how long ago anything was heard from it. Each drone keeps a
/// `StatusBoard` (the same presence and telemetry bookkeeping as the one-drone screen); this only lays them out.
/// Times are the caller's clock (receipt on this machine), so clock skew between hosts does not distort them.
public struct FleetBoard: Sendable {
    /// 80 columns with ids up to 12 characters; at most this with the longest (32).
    static let maxWidth = 100
    /// Drone ids come from topics: cap how many we keep so a client inventing ids cannot grow the table forever.
    public static let maxDrones = 64
    /// The service columns: a board's vehicle link is drone-link or mavlink-link, whichever it runs.
    static let columns: [(title: String, services: [String])] = [
        ("link", ["drone-link", "mavlink-link"]), ("ctrl", ["drone-controller"]), ("nav", ["navigator"]),
        ("log", ["telemetry-logger"]),
    ]
    /// Presences that make an id a drone (a ground tool's own presence, e.g. a logger under `quad/ground/`, does not).
    static let boardServices: Set<String> = ["drone-link", "mavlink-link", "drone-controller", "navigator"]

    var boards: [String: StatusBoard] = [:]
    var lastHeardUs: [String: Int64] = [:]
    /// Ids not kept because of `maxDrones`.
    public private(set) var droppedDrones = 0
    /// When this reader subscribed: until one re-announce interval has passed, a service not heard from is "wait".
    public var watchingSince: MonotonicInstant?
    /// How long a service not heard from shows "wait" (StatusBoard's window unless widened).
    public var presenceWait = StatusBoard.defaultPresenceWait

    public init() {}

    /// Drones listed, in id order.
    public var drones: [String] { boards.keys.filter { isDrone($0) }.sorted() }

    public mutating func update(presence: ServicePresence, drone: DroneID, receivedAt: MonotonicInstant) {
        let receivedAtUs = receivedAt.us
        withBoard(drone, receivedAtUs) { $0.update(presence: presence, receivedAt: receivedAt) }
    }

    public mutating func update(controller state: ControllerState, drone: DroneID, receivedAt: MonotonicInstant) {
        let receivedAtUs = receivedAt.us
        withBoard(drone, receivedAtUs) { $0.update(controller: state, receivedAt: receivedAt) }
    }

    public mutating func update(drone state: DroneState, drone: DroneID, receivedAt: MonotonicInstant) {
        let receivedAtUs = receivedAt.us
        withBoard(drone, receivedAtUs) { $0.update(drone: state, receivedAt: receivedAt) }
    }

    public mutating func update(link status: LinkStatus, drone: DroneID, receivedAt: MonotonicInstant) {
        let receivedAtUs = receivedAt.us
        withBoard(drone, receivedAtUs) { $0.update(link: status, receivedAt: receivedAt) }
    }

    private mutating func withBoard(_ drone: DroneID, _ receivedAtUs: Int64, _ update: (inout StatusBoard) -> Void) {
        let id = drone.rawValue
        if boards[id] == nil {
            guard boards.count < Self.maxDrones else {
                droppedDrones += 1
                return
            }
            boards[id] = StatusBoard(drone: drone, expectedServices: Self.columns.flatMap(\.services))
        }
        update(&boards[id]!)
        lastHeardUs[id] = receivedAtUs
    }

    func isDrone(_ id: String) -> Bool {
        guard let board = boards[id] else { return false }
        return board.controller != nil || board.droneState != nil || board.link != nil
            || !Self.boardServices.isDisjoint(with: board.services.keys)
    }

    /// The table, lines joined by `\n`: 80 columns unless an id is longer than 12 characters.
    public func render(now: MonotonicInstant) -> String {
        let drones = self.drones
        var lines = ["quadcopter fleet: \(drones.count) drone\(drones.count == 1 ? "" : "s")", ""]
        if drones.isEmpty {
            lines.append("  no drone seen yet (no board service's status and no telemetry under quad/+/)")
        } else {
            // Ids are shown whole (up to 32 characters): a longer id widens the table rather than being cut.
            let idWidth = max(14, (drones.map(\.count).max() ?? 0) + 2)
            lines.append(TextFormat.pad("DRONE", idWidth) + Self.columns.map { TextFormat.pad($0.title, 5) }.joined()
                + TextFormat.pad("ACTIVITY", 18) + TextFormat.pad("BATT", 6) + TextFormat.pad("LINK", 16) + "HEARD")
            lines += drones.map { row($0, idWidth: idWidth, now: now) }
        }
        let others = boards.keys.filter { !isDrone($0) }.sorted()
        if !others.isEmpty {
            lines.append("  also seen (no board service): " + others.prefix(8).joined(separator: ", ")
                + (others.count > 8 ? ", …" : ""))
        }
        if droppedDrones > 0 { lines.append("  (more than \(Self.maxDrones) ids: the rest not shown)") }
        lines += ["", "  link: drone-link or mavlink-link   log: a telemetry-logger under that id",
                  "  wait: no status yet (services re-announce every \(Int(ServiceStatus.reannounceIntervalS)) s)   "
                      + "?: none seen"]
        return lines.map { TextFormat.clean($0, width: Self.maxWidth).trimmingTrailingSpaces }.joined(separator: "\n")
    }

    func row(_ id: String, idWidth: Int, now: MonotonicInstant) -> String {
        let nowUs = now.us
        guard let board = boards[id] else { return "" }
        var line = TextFormat.pad(id, idWidth)
        for column in Self.columns {
            line += TextFormat.pad(cell(board, column.services, nowUs: nowUs), 5)
        }
        line += TextFormat.pad(board.controller.map { $0.value.activity.name(separator: "-") } ?? "-", 18)
        line += TextFormat.pad(board.droneState.map { "\($0.value.batteryPercent)%" } ?? "-", 6)
        line += TextFormat.pad(board.linkWord(now: now), 16)
        return line + TextFormat.age(us: lastHeardUs[id].map { nowUs &- $0 })
    }

    /// `on` when any of `services` is online, `OFF` when one said offline, else `wait` / `?` (see the legend).
    func cell(_ board: StatusBoard, _ services: [String], nowUs: Int64) -> String {
        let known = services.compactMap { board.services[$0]?.presence }
        if known.contains(where: \.online) { return "on" }
        if !known.isEmpty { return "OFF" }
        if let since = watchingSince?.us, nowUs &- since < presenceWait.us { return "wait" }
        return "?"
    }

}
