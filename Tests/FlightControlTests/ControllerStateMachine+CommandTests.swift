import FlightControl
import QuadProtocol
import Testing

/// One row: a command sent in an activity, the activity afterwards and the refusal reason (nil = accepted).
struct CommandCase: Sendable, CustomTestStringConvertible {
    var kind: Command.Kind
    var activity: ControllerState.Activity
    var after: ControllerState.Activity
    var refusal: Reason?

    init(_ kind: Command.Kind, in activity: ControllerState.Activity, _ after: ControllerState.Activity,
         _ refusal: Reason? = nil) {
        self.kind = kind
        self.activity = activity
        self.after = after
        self.refusal = refusal
    }

    var testDescription: String { "\(kind.word) in \(activity) → \(after)\(refusal.map { " (\($0))" } ?? "")" }
}

@Suite("ControllerStateMachine: every command in every activity")
struct ControllerCommandTests {
    static let table: [CommandCase] = [
        CommandCase(.takeoff, in: .landed, .takingOff),
        CommandCase(.takeoff, in: .takingOff, .takingOff),
        CommandCase(.takeoff, in: .hovering, .hovering),
        CommandCase(.takeoff, in: .flyingToTarget, .flyingToTarget),
        CommandCase(.takeoff, in: .arrived, .arrived),
        CommandCase(.takeoff, in: .landing, .takingOff),
        CommandCase(.takeoff, in: .emergency, .emergency, .takeoffRefusedEmergency),
        CommandCase(.takeoff, in: .returningHome, .returningHome),

        CommandCase(.land, in: .landed, .landed),
        CommandCase(.land, in: .takingOff, .landing),
        CommandCase(.land, in: .hovering, .landing),
        CommandCase(.land, in: .flyingToTarget, .landing),
        CommandCase(.land, in: .arrived, .landing),
        CommandCase(.land, in: .landing, .landing),
        CommandCase(.land, in: .emergency, .emergency, .landRefusedEmergency),
        CommandCase(.land, in: .returningHome, .landing),

        CommandCase(.hover, in: .landed, .landed, .hoverRefusedNotAirborne),
        CommandCase(.hover, in: .takingOff, .takingOff),
        CommandCase(.hover, in: .hovering, .hovering),
        CommandCase(.hover, in: .flyingToTarget, .hovering),
        CommandCase(.hover, in: .arrived, .hovering),
        // Landing with navdata still showing the drone in the air: the operator may stop the descent.
        CommandCase(.hover, in: .landing, .hovering),
        CommandCase(.hover, in: .emergency, .emergency, .hoverRefusedEmergency),
        CommandCase(.hover, in: .returningHome, .returningHome, .hoverRefusedReturningHome),

        CommandCase(.emergency, in: .landed, .emergency),
        CommandCase(.emergency, in: .takingOff, .emergency),
        CommandCase(.emergency, in: .hovering, .emergency),
        CommandCase(.emergency, in: .flyingToTarget, .emergency),
        CommandCase(.emergency, in: .arrived, .emergency),
        CommandCase(.emergency, in: .landing, .emergency),
        CommandCase(.emergency, in: .emergency, .emergency),
        CommandCase(.emergency, in: .returningHome, .emergency),

        CommandCase(.reset, in: .landed, .landed, .resetRefusedNotInEmergency),
        CommandCase(.reset, in: .takingOff, .takingOff, .resetRefusedNotInEmergency),
        CommandCase(.reset, in: .hovering, .hovering, .resetRefusedNotInEmergency),
        CommandCase(.reset, in: .flyingToTarget, .flyingToTarget, .resetRefusedNotInEmergency),
        CommandCase(.reset, in: .arrived, .arrived, .resetRefusedNotInEmergency),
        CommandCase(.reset, in: .landing, .landing, .resetRefusedNotInEmergency),
        CommandCase(.reset, in: .emergency, .emergency),
        CommandCase(.reset, in: .returningHome, .returningHome, .resetRefusedNotInEmergency),

        CommandCase(.flatTrim, in: .landed, .landed),
        CommandCase(.flatTrim, in: .takingOff, .takingOff, .flatTrimRefusedNotLanded),
        CommandCase(.flatTrim, in: .hovering, .hovering, .flatTrimRefusedNotLanded),
        CommandCase(.flatTrim, in: .flyingToTarget, .flyingToTarget, .flatTrimRefusedNotLanded),
        CommandCase(.flatTrim, in: .arrived, .arrived, .flatTrimRefusedNotLanded),
        CommandCase(.flatTrim, in: .landing, .landing, .flatTrimRefusedNotLanded),
        CommandCase(.flatTrim, in: .emergency, .emergency, .flatTrimRefusedNotLanded),
        CommandCase(.flatTrim, in: .returningHome, .returningHome, .flatTrimRefusedNotLanded),

        CommandCase(.returnHome, in: .landed, .landed, .returnRefusedNotAirborne),
        CommandCase(.returnHome, in: .takingOff, .takingOff, .returnRefusedNotAirborne),
        CommandCase(.returnHome, in: .hovering, .returningHome),
        CommandCase(.returnHome, in: .flyingToTarget, .returningHome),
        CommandCase(.returnHome, in: .arrived, .returningHome),
        CommandCase(.returnHome, in: .landing, .returningHome),
        CommandCase(.returnHome, in: .emergency, .emergency, .returnRefusedEmergency),
        CommandCase(.returnHome, in: .returningHome, .returningHome),

        // Before the first navdata nobody knows whether the drone flies: only land (kept for the first navdata)
        // and emergency are taken.
        CommandCase(.takeoff, in: .unknown, .unknown, .takeoffRefusedNoDroneState),
        CommandCase(.land, in: .unknown, .unknown),
        CommandCase(.hover, in: .unknown, .unknown, .hoverRefusedNoDroneState),
        CommandCase(.emergency, in: .unknown, .emergency),
        CommandCase(.reset, in: .unknown, .unknown, .resetRefusedNotInEmergency),
        CommandCase(.flatTrim, in: .unknown, .unknown, .flatTrimRefusedNotLanded),
        CommandCase(.returnHome, in: .unknown, .unknown, .returnRefusedNoDroneState),
    ]

    @Test("the table covers every command in every activity")
    func tableIsComplete() {
        let covered = Set(Self.table.map { "\($0.kind.word)/\($0.activity)" })
        #expect(covered.count == Command.Kind.allCases.count * ControllerState.Activity.allCases.count)
    }

    @Test(arguments: table)
    func command(_ row: CommandCase) {
        var h = ControllerHarness()
        h.reach(row.activity)
        #expect(h.activity == row.activity)
        let actions = h.command(row.kind)
        #expect(h.activity == row.after)
        #expect(actions.rejections == row.refusal.map { ["command: \($0)"] } ?? [])
        if let refusal = row.refusal {
            #expect(h.reason == refusal)
        }
    }

    @Test("emergency cuts the motors (emergencyCutoff) and is accepted even from a non-pilot")
    func emergencyFromAnyone() {
        var h = ControllerHarness()
        h.claim("phone")
        h.hoveringAsPilot("phone")
        #expect(h.activity == .hovering)
        #expect(h.command(.land, from: "intruder").rejections == ["command: not-pilot"])
        let actions = h.command(.emergency, from: "intruder")
        #expect(actions.rejections.isEmpty)
        #expect(h.activity == .emergency)
        #expect(h.nextTick().flights.first?.refMode == .emergencyCutoff)
    }

    @Test("reset holds emergencyRecover until navdata clears the emergency bit, then landed")
    func resetFlow() {
        var h = ControllerHarness()
        h.landed()
        h.drone(.landed, bits: 1 << 31)
        #expect(h.activity == .emergency)
        #expect(h.reason == .droneEmergency)
        h.command(.reset)
        #expect(h.nextTick().flights.first?.refMode == .emergencyRecover)
        h.advance(ms: 30)
        h.drone(.landed, bits: 1 << 31)
        #expect(h.activity == .emergency)
        #expect(h.nextTick().flights.first?.refMode == .emergencyRecover)
        h.advance(ms: 30)
        let cleared = h.drone(.landed)
        #expect(cleared.activities == [.landed])
        #expect(h.reason == .resetComplete)
        #expect(h.nextTick().flights.first?.refMode == .land)
    }

    @Test("an emergency bit in navdata enters emergency from any activity",
          arguments: ControllerState.Activity.allCases.filter { $0 != .emergency })
    func droneEmergency(activity: ControllerState.Activity) {
        var h = ControllerHarness()
        h.reach(activity)
        h.advance(ms: 30)
        h.drone(.hovering, bits: 1 << 31)
        #expect(h.activity == .emergency)
        #expect(h.machine.target == nil)
    }

    @Test("flat trim is one-shot: only the next flight command carries it")
    func flatTrimOneShot() {
        var h = ControllerHarness()
        h.landed()
        h.command(.flatTrim)
        #expect(h.nextTick().flights.map(\.flatTrim) == [true])
        #expect(h.nextTick().flights.map(\.flatTrim) == [false])
    }

    @Test("hover forgets the target; a new target flies again")
    func hoverDropsTarget() {
        var h = ControllerHarness()
        h.flyingToTarget()
        h.command(.hover)
        #expect(h.machine.target == nil)
        #expect(h.nextTick().flights.first?.progressive == false)
        h.target(ControllerHarness.point(northM: 40))
        #expect(h.activity == .flyingToTarget)
    }

    @Test("takeoff is refused below the land battery level, with or without the VBAT_LOW bit",
          arguments: [(UInt8(14), UInt32(0)), (UInt8(14), UInt32(1 << 15))])
    func takeoffRefusedBattery(battery: UInt8, bits: UInt32) {
        var h = ControllerHarness()
        h.drone(.landed, battery: battery, bits: bits)
        #expect(h.command(.takeoff).rejections == ["command: takeoff-refused-battery-low"])
        #expect(h.activity == .landed)
    }

    @Test("--land-battery rules, not the drone's VBAT_LOW bit (fixed at ~20 %): 10 flies on at 15 %, lands at 9 %")
    func landBatteryBelowTheDroneBit() {
        var h = ControllerHarness(configuration: ControllerConfiguration(landBatteryPercent: 10))
        let lowBit: UInt32 = 1 << 15
        h.drone(.landed, battery: 19, bits: lowBit)
        h.position()
        #expect(h.command(.takeoff).rejections.isEmpty)
        h.advance(ms: 500)
        h.drone(.hovering, battery: 15, bits: lowBit)
        #expect(h.activity == .hovering)
        h.advance(ms: 100)
        h.drone(.hovering, battery: 9, bits: lowBit)
        #expect(h.activity == .landing)
        #expect(h.reason == .batteryLow)
    }

    @Test("takeoff without fresh navdata is refused")
    func takeoffRefusedWithoutNavdata() {
        var h = ControllerHarness()
        #expect(h.command(.takeoff).rejections == ["command: takeoff-refused-no-drone-state"])
        h.drone(.landed)
        h.advance(ms: 1500)
        #expect(h.command(.takeoff).rejections == ["command: takeoff-refused-no-drone-state"])
    }
}
