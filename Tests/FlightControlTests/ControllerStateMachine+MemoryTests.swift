import Clocks
import FlightControl
import Navigation
import QuadProtocol
import Testing

/// A restarted controller resumes the flight it was flying from the memory its previous run kept (issue 24): the
/// same target and pilot when still valid, otherwise it holds and says why.
@Suite("ControllerStateMachine: flight memory across a restart")
struct ControllerMemoryTests {
    /// A run flying to a target 40 m north, with the memory it kept.
    static func flyingRun(ttlS: Float = 0, pilot: String? = nil) -> (ControllerHarness, FlightMemory) {
        var h = ControllerHarness()
        h.machine.bootId = "boot-a"
        h.reach(.hovering)
        if let pilot { h.claim(pilot) }
        var remembered: FlightMemory?
        let actions = h.target(ControllerHarness.point(northM: 40), from: pilot ?? "", ttlS: ttlS)
        for case .rememberFlight(let memory) in actions { remembered = memory }
        return (h, remembered!)
    }

    /// A new run at `atUs` that found `memory`.
    static func restarted(_ memory: FlightMemory, atUs: Int64, boot: String = "boot-a") -> ControllerHarness {
        var h = ControllerHarness()
        h.nowUs = atUs
        h.machine.bootId = boot
        _ = h.machine.restore(memory, now: MonotonicInstant(us: atUs))
        return h
    }

    @Test func theMemoryIsKeptOnEveryChangeAndReadsBack() throws {
        let (run, memory) = Self.flyingRun(ttlS: 30, pilot: "anna")
        #expect(memory.activity == .flyingToTarget && memory.target == run.machine.target && memory.pilotId == "anna")
        #expect(try FlightMemory(text: memory.text) == memory)
        #expect(throws: FlightMemory.DecodeError.self) { try FlightMemory(text: "format=1\nboot=x\nactivity=99\n") }
        #expect(throws: FlightMemory.DecodeError.self) { try FlightMemory(text: "garbage") }
    }

    @Test func aRestartMidLegResumesTheSameTargetAndPilot() {
        let (run, memory) = Self.flyingRun(pilot: "anna")
        var h = Self.restarted(memory, atUs: run.nowUs + 2_000_000)
        #expect(h.machine.pilotId == "anna", "the pilot keeps control across the restart")
        h.drone(.flying)
        #expect(h.activity == .flyingToTarget && h.reason == .resumedTarget)
        #expect(h.machine.target == run.machine.target)
    }

    @Test func anExpiredTargetIsNotFlown() {
        let (run, memory) = Self.flyingRun(ttlS: 5)
        var h = Self.restarted(memory, atUs: run.nowUs + 6_000_000)
        h.drone(.flying)
        #expect(h.activity == .hovering && h.reason == .resumedTargetExpired && h.machine.target == nil)
    }

    @Test func aNewerTargetOrAReleaseWins() {
        let (run, memory) = Self.flyingRun(pilot: "anna")
        var newer = Self.restarted(memory, atUs: run.nowUs + 1_000_000)
        newer.target(ControllerHarness.point(northM: -20), from: "anna")
        newer.drone(.flying)
        #expect(newer.machine.target?.latitudeDeg == ControllerHarness.point(northM: -20).latitudeDeg)
        var released = Self.restarted(memory, atUs: run.nowUs + 1_000_000)
        released.claim("anna", .release)
        released.drone(.flying)
        #expect(released.activity == .hovering && released.reason == .resumedInFlight)
    }

    @Test func anotherBootOrADroneOnTheGroundIsNotResumed() {
        let (run, memory) = Self.flyingRun()
        var otherBoot = Self.restarted(memory, atUs: run.nowUs + 1_000_000, boot: "boot-b")
        otherBoot.drone(.flying)
        #expect(otherBoot.reason == .resumedInFlight && otherBoot.machine.target == nil)
        var onGround = Self.restarted(memory, atUs: run.nowUs + 1_000_000)
        onGround.drone(.landed)
        onGround.drone(.flying)
        #expect(onGround.activity != .flyingToTarget)
    }

    @Test func aLandingGoesOnLanding() {
        var run = Self.flyingRun().0
        var memory: FlightMemory?
        for case .rememberFlight(let m) in run.command(.land) { memory = m }
        #expect(memory?.activity == .landing)
        var h = Self.restarted(memory!, atUs: run.nowUs + 1_000_000)
        h.drone(.flying)
        #expect(h.activity == .landing && h.reason == .resumedLanding)
    }
}
