import QuadProtocol
import Testing

/// The takeoff rule both links share: `fly` keeps a vehicle flying; only a takeoff id first seen while the vehicle
/// was on the ground takes it up, once.
@Suite struct TakeoffGateTests {
    @Test func aTakeoffIssuedAfterTheVehicleWasSeenOnTheGroundIsAllowedOnce() {
        var gate = TakeoffGate()
        gate.observe(onGround: true)
        gate.command(takeoffId: 7)
        #expect(gate.allowsTakeoff && gate.holdsTakeoff && gate.refusal == nil)
        gate.tookOff()
        #expect(!gate.allowsTakeoff)
        #expect(gate.holdsTakeoff, "held until the vehicle is seen in the air")
        gate.observe(onGround: false)
        gate.observe(onGround: true)
        #expect(!gate.allowsTakeoff && !gate.holdsTakeoff, "landed by itself with the same id in force: not again")
        #expect(gate.refusal == "takeoff 7 already used")
        gate.command(takeoffId: 8)
        #expect(gate.allowsTakeoff, "a new takeoff command")
    }

    @Test func aContinuingFlyNeverTakesOff() {
        var gate = TakeoffGate()
        gate.command(takeoffId: 0)
        gate.observe(onGround: true)
        #expect(!gate.allowsTakeoff && !gate.holdsTakeoff)
        #expect(gate.refusal == "no takeoff command (a continuing flight command never arms)")
    }

    @Test func anIdSeenBeforeTheVehicleWasKnownOnTheGroundIsNotATakeoff() {
        // A link (re)started with the controller's command arriving before the vehicle's state.
        var gate = TakeoffGate()
        gate.command(takeoffId: 5)
        #expect(gate.refusal == "vehicle state unknown")
        gate.observe(onGround: true)
        #expect(!gate.allowsTakeoff)
        #expect(gate.refusal == "takeoff 5 was issued before this link saw the vehicle on the ground")
        // Seen in the air when the id came: the vehicle landed since (a failsafe): still not a takeoff.
        var inAir = TakeoffGate()
        inAir.observe(onGround: false)
        inAir.command(takeoffId: 6)
        inAir.observe(onGround: true)
        #expect(!inAir.allowsTakeoff)
    }
}
