/// The one rule both vehicle links apply before they arm a vehicle or set its takeoff bit: a vehicle seen on the
/// ground goes into the air only for a takeoff the controller asked for after the link saw it there.
///
/// `FlightCommand.refMode == .fly` means "keep flying"; it is never a takeoff by itself (a link restarted, or a
/// vehicle that landed by itself in a failsafe, would otherwise be armed by the controller's continuing command).
/// A takeoff is a non-zero `takeoffId` that (1) this link run never received while it did not know the vehicle to
/// be on the ground, and (2) it has not armed for before. Pure: the link feeds it what it sees, in order.
public struct TakeoffGate: Sendable, Equatable {
    /// What the link knows of the vehicle: nil before the first observation of this link run.
    public private(set) var vehicleOnGround: Bool?
    /// The takeoff id of the latest command (0 = none).
    public private(set) var currentId: UInt32 = 0
    /// Ids received while the vehicle was not known to be on the ground: never a takeoff (they were issued
    /// before this link could tell, e.g. across its restart). The most recent `memory` only.
    private var tooEarlyIds: [UInt32] = []
    /// Ids armed for: never again (a repeated or replayed command must not take off twice).
    private var usedIds: [UInt32] = []
    /// The vehicle was seen in the air since the link armed for the last used id (that takeoff is over).
    private var airborneSinceTakeoff = false
    /// How many ids each list keeps: far more than a controller issues between two link restarts.
    static let memory = 32

    public init() {}

    /// The vehicle as the link sees it now (AR.Drone: navdata's flying bit; MAVLink: disarmed or landed state).
    public mutating func observe(onGround: Bool) {
        vehicleOnGround = onGround
        if !onGround, !usedIds.isEmpty { airborneSinceTakeoff = true }
    }

    /// The takeoff id of each flight command, in the order received.
    public mutating func command(takeoffId: UInt32) {
        currentId = takeoffId
        guard takeoffId != 0, vehicleOnGround != true, !tooEarlyIds.contains(takeoffId),
              !usedIds.contains(takeoffId) else { return }
        Self.remember(takeoffId, in: &tooEarlyIds)
    }

    /// Whether the command in force may start a takeoff of the vehicle (on the ground now): arm it, or set the
    /// AR.Drone's takeoff bit for the first time.
    public var allowsTakeoff: Bool {
        vehicleOnGround == true && currentId != 0 && !tooEarlyIds.contains(currentId) && !usedIds.contains(currentId)
    }

    /// Whether a level-triggered takeoff request (AR.Drone's REF bit 9) stays set: from its start until the vehicle
    /// is first seen in the air, for the same id. After that the id is spent: a vehicle back on the ground with that
    /// id still in force (it landed by itself) is not taken off again.
    public var holdsTakeoff: Bool {
        allowsTakeoff || (currentId != 0 && usedIds.last == currentId && !airborneSinceTakeoff)
    }

    /// Why not, in words for a log line (nil when allowed).
    public var refusal: String? {
        if allowsTakeoff { return nil }
        if vehicleOnGround != true {
            return vehicleOnGround == nil ? "vehicle state unknown" : "vehicle not on the ground"
        }
        if currentId == 0 { return "no takeoff command (a continuing flight command never arms)" }
        if usedIds.contains(currentId) { return "takeoff \(currentId) already used" }
        return "takeoff \(currentId) was issued before this link saw the vehicle on the ground"
    }

    /// The link armed (or set the takeoff bit) for the id in force: it is used up.
    public mutating func tookOff() {
        Self.remember(currentId, in: &usedIds)
        airborneSinceTakeoff = false
    }

    private static func remember(_ id: UInt32, in list: inout [UInt32]) {
        list.removeAll { $0 == id }
        list.append(id)
        if list.count > memory { list.removeFirst(list.count - memory) }
    }
}
