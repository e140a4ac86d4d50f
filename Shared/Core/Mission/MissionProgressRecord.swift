/// One item the mission reached: when (mission time, from its start) and how far from the point (the service's
/// measure at arrival).
public struct ReachedItem: Sendable, Equatable {
    public var id: Int
    public var at: Duration
    public var arrivalErrorM: Double

    public init(id: Int, at: Duration, arrivalErrorM: Double) {
        self.id = id
        self.at = at
        self.arrivalErrorM = arrivalErrorM
    }
}

/// What the board persists to resume a mission after a restart: the executor emits it (`persist`) after every
/// change and at most every `persistEvery` while a hold or loiter runs. Spans only, no instants: the monotonic
/// clock starts again at a power cycle, so a loiter's end is kept as the time it had left.
public struct MissionProgressRecord: Sendable, Equatable {
    /// The plan it belongs to (`MissionPlan.checksum`); a record for another plan is refused at restore.
    public var planChecksum: UInt32
    public var state: MissionState
    public var phase: MissionPhase
    public var currentItem: Int
    /// In a hold or loiter: how long it still had to run when persisted; zero otherwise.
    public var stayLeft: Duration
    /// Mission time when persisted (from the first `start`).
    public var elapsed: Duration
    /// In the order reached; each id at most once.
    public var reached: [ReachedItem]

    public init(planChecksum: UInt32, state: MissionState, phase: MissionPhase, currentItem: Int,
                stayLeft: Duration, elapsed: Duration, reached: [ReachedItem]) {
        self.planChecksum = planChecksum
        self.state = state
        self.phase = phase
        self.currentItem = currentItem
        self.stayLeft = stayLeft
        self.elapsed = elapsed
        self.reached = reached
    }

    /// The record without its running clocks: two records that differ only in time need no new persist.
    var withoutClocks: MissionProgressRecord {
        var copy = self
        copy.stayLeft = .zero
        copy.elapsed = .zero
        return copy
    }
}
