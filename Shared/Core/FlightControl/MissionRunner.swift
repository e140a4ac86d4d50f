import Clocks
import Mission

/// The mission the controller holds (issue 37): the accepted plan's executor and what the controller flies for its
/// current item. Built by an accepted upload, or at start from the plan the previous run stored;
/// `ControllerStateMachine+Mission` turns the executor's actions into the controller's own inputs.
public struct MissionRunner: Sendable {
    public internal(set) var executor: MissionExecutor
    /// Who uploaded the plan (for logs).
    public let senderId: String
    /// The item whose point the controller's target is: its arrival is that item's. Nil when none is flown.
    var targetItem: Int?
    /// The previous run's record, taken up once navdata says whether the drone is in the air.
    var pendingRestore: PendingRestore?
    /// When the drone arrived over a land item's point and began to settle there (`landPointSettled`).
    var landSettleSince: MonotonicInstant?

    struct PendingRestore: Sendable {
        var record: MissionProgressRecord
        var powerCycle: Bool
    }

    init(plan: MissionPlan, senderId: String, configuration: MissionExecutor.Configuration) {
        executor = MissionExecutor(plan: plan, configuration: configuration)
        self.senderId = senderId
    }

    public var checksum: UInt32 { executor.plan.checksum }
}

extension MissionState {
    /// Started and not finished: the plan owns the drone's movements (or holds it), so it is not replaced.
    var isUnderWay: Bool { [.running, .paused, .holdingAfterRestart, .returning].contains(self) }
}

/// What `mission/status` says: the last upload refused (kept across plans) and the status's sequence.
public struct MissionStatusRecord: Sendable {
    var refusal: MissionStatus.Refusal?
    var sequence: UInt32 = 0

    public init() {}
}
