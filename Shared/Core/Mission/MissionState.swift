/// Where the mission stands. Raw values are part of the progress payload.
public enum MissionState: UInt8, Sendable, CaseIterable {
    /// Loaded, not started (or restored from a record that was never started).
    case idle = 0
    case running = 1
    /// Stopped by `pause` (or by `pause` during a lost-pilot return); `resume` continues.
    case paused = 2
    /// Restored after a power cycle, or on the ground: holds until `resume` (in the air) or `start` (on the ground).
    case holdingAfterRestart = 3
    /// The lost-pilot rule `return` took the drone home; `resume` flies on from the current item.
    case returning = 4
    /// The last item was flown (a land or return item ends it too).
    case completed = 5
    /// `abort`, or the lost-pilot rule `land`: nothing of the mission moves the drone again until `start`.
    case aborted = 6

    /// Nothing more to fly until a new `start`.
    public var isFinished: Bool { self == .completed || self == .aborted }
}

/// What the current item is doing. Raw values are part of the progress payload.
public enum MissionPhase: UInt8, Sendable, CaseIterable {
    /// Flying to the item's point (or about to).
    case approaching = 0
    /// The takeoff requested by `start` on the ground, until its item is reached.
    case takingOff = 1
    /// Arrived, holding or loitering for the time left.
    case staying = 2
    /// A land item's landing was asked for.
    case landing = 3
}
