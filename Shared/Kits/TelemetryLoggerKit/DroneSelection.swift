import QuadProtocol

/// Which drones one `record` process writes: every drone, a list (`--drone ID`, `--drones a,b,c`), or its part
/// of a hash split (`--shard K/N`) for brokers without MQTT 5 shared subscriptions. A list is subscribed to
/// exactly (the broker sends only those drones); a shard subscribes to every drone and keeps its own, so each
/// drone is recorded by exactly one of the N loggers and always by the same one (one file per drone, complete).
enum DroneSelection: Equatable, Sendable {
    case all
    case only([DroneID])
    case shard(index: Int, count: Int)

    static let maxShards = 1024

    /// The recorded filters (disjoint: each message matches one).
    var filters: [String] {
        switch self {
        case .all, .shard: Topics.recordedFilters
        case .only(let drones): drones.flatMap(Topics.recordedFilters(drone:))
        }
    }

    /// The one drone a single-drone list names (narrower sync filters), else nil.
    var singleDrone: DroneID? {
        if case .only(let drones) = self, drones.count == 1 { return drones[0] }
        return nil
    }

    /// Whether this logger records messages of `drone` (nil: a topic without a valid drone id, kept by shard 0).
    func includes(_ drone: DroneID?) -> Bool {
        switch self {
        case .all: true
        case .only(let drones): drone.map(drones.contains) ?? false
        case let .shard(index, count): (drone.map { Self.shard(of: $0, count: count) } ?? 0) == index
        }
    }

    /// `includes` for a message's topic (every drone: no need to read its id).
    func includes(topic: String) -> Bool {
        if case .all = self { return true }
        return includes(DroneID(topic: topic))
    }

    /// FNV-1a (32 bit) of the id's UTF-8 bytes, modulo `count`: stable across processes, hosts and versions (the
    /// docs/ground-tools.md states it, so an operator can tell which logger has a drone).
    static func shard(of drone: DroneID, count: Int) -> Int {
        var hash: UInt32 = 0x811C_9DC5
        for byte in drone.rawValue.utf8 {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        return Int(hash % UInt32(max(1, count)))
    }

    /// `a,b,c` → the drones, in order, without repeats; or the first entry that is no drone id.
    static func parseList(_ text: String) -> Result<[DroneID], SelectionError> {
        var drones: [DroneID] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let drone = DroneID(rawValue: String(part)) else { return .failure(.badDrone(String(part))) }
            if !drones.contains(drone) { drones.append(drone) }
        }
        return .success(drones)
    }

    /// `K/N` with 1 ≤ N ≤ 1024 and 0 ≤ K < N.
    static func parseShard(_ text: String) -> Result<DroneSelection, SelectionError> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            return .failure(.badShard(text))
        }
        guard (1...maxShards).contains(count), (0..<count).contains(index) else { return .failure(.badShard(text)) }
        return .success(.shard(index: index, count: count))
    }

    enum SelectionError: Error, Equatable, CustomStringConvertible {
        case badDrone(String)
        case badShard(String)
        var description: String {
            switch self {
            case .badDrone(let text): "--drones: '\(text)' is no drone id (1–32 characters of a-z, 0-9 and '-')"
            case .badShard(let text): "--shard '\(text)': expected K/N with 1 ≤ N ≤ \(maxShards) and 0 ≤ K < N"
            }
        }
    }
}
