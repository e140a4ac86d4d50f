import Mission
import Testing
@testable import LocationBroadcasterKit

/// `location-broadcaster mission`: when the progress shows a command done, and what `mission status` prints.
@Suite struct MissionControlCommandTests {
    static func record(_ state: MissionState, item: Int, reached: [ReachedItem] = [],
                       elapsed: Duration = .seconds(10)) -> MissionProgressRecord {
        MissionProgressRecord(planChecksum: 0x1a2b_3c4d, state: state, phase: .approaching, currentItem: item,
                              stayLeft: .zero, elapsed: elapsed, reached: reached)
    }

    @Test func aCommandIsDoneByWhatTheProgressShowsNeverByItsClocks() {
        let running = Self.record(.running, item: 2)
        // The clock moved, nothing else: a refused start is no start.
        #expect(!MissionControlCommand.shows(.start, Self.record(.running, item: 2, elapsed: .seconds(11)),
                                             before: running))
        #expect(MissionControlCommand.shows(.start, Self.record(.running, item: 0),
                                            before: Self.record(.idle, item: 0)))
        #expect(MissionControlCommand.shows(.pause, Self.record(.paused, item: 2), before: running))
        #expect(MissionControlCommand.shows(.resume, running, before: Self.record(.paused, item: 2)))
        #expect(MissionControlCommand.shows(.abort, Self.record(.aborted, item: 2), before: running))
        #expect(MissionControlCommand.shows(.goto(item: 1), Self.record(.running, item: 1), before: running))
        // goto a speed change: passed over at once to the next item.
        #expect(MissionControlCommand.shows(.goto(item: 3), Self.record(.running, item: 4), before: running))
        #expect(!MissionControlCommand.shows(.goto(item: 1), running, before: running))
        // Already so before the command: the board refuses it; the retained progress is no answer.
        let paused = Self.record(.paused, item: 2), aborted = Self.record(.aborted, item: 2)
        #expect(!MissionControlCommand.shows(.pause, paused, before: paused))
        #expect(!MissionControlCommand.shows(.abort, aborted, before: aborted))
    }

    @Test func statusNamesTheChecksumEachReachedItemAndWhatIsLeft() {
        let record = Self.record(.running, item: 2, reached: [ReachedItem(id: 0, at: .seconds(3), arrivalErrorM: 0),
                                                              ReachedItem(id: 1, at: .seconds(21), arrivalErrorM: 0.6)])
        let lines = MissionControlCommand.lines(MissionProgress(record: record, remainingDistanceM: 42.4,
                                                                remainingTime: .seconds(30)))
        #expect(lines == [
            "mission 0x1a2b3c4d: running, item 2 (approaching), 2 reached, mission time 10.0 s",
            "  item 0 reached at 3.0 s, 0.0 m off",
            "  item 1 reached at 21.0 s, 0.6 m off",
            "  remaining 42 m, ~30 s",
        ])
    }

    @Test func statusSaysWhetherTheAutopilotHoldsThePlan() {
        let plan: UInt32 = 0x1a2b_3c4d
        #expect(MissionControlCommand.autopilotLine(nil, plan: plan) == nil, "an AR.Drone: no line")
        #expect(MissionControlCommand.autopilotLine(MissionStatus(sequence: 1, heldChecksum: plan, refusal: nil),
                                                    plan: plan)?.contains("holds this plan") == true)
        let refused = MissionStatus(sequence: 2, heldChecksum: nil,
                                    refusal: .init(planChecksum: plan, item: nil, reason: "no answer"))
        #expect(MissionControlCommand.autopilotLine(refused, plan: plan) == "autopilot's own mission: not in place: "
            + "no answer")
        #expect(MissionControlCommand.autopilotLine(MissionStatus(sequence: 3, heldChecksum: 7, refusal: nil),
                                                    plan: plan)?.contains("not (yet) this plan") == true)
    }
}
