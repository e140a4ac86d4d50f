import Testing
@testable import DroneSimulation

@Suite struct SimulatedDroneTests {
    @Test func takeoffClimbsToAboutOneMetreAndHovers() {
        var drone = DroneHarness.makeDrone()
        drone.applyReference(bits: DroneHarness.takeoffBits)
        drone.step(dtS: 0.01)
        #expect(drone.flightState == .takingOff)
        DroneHarness.run(&drone, seconds: 5)
        #expect(drone.flightState == .hovering)
        #expect(abs(drone.altitudeM - 1) < 0.2)
    }

    @Test func takeoffTakesTwoToFourSeconds() {
        var drone = DroneHarness.makeDrone()
        drone.applyReference(bits: DroneHarness.takeoffBits)
        DroneHarness.run(&drone, seconds: 2)
        #expect(drone.flightState == .takingOff)
        DroneHarness.run(&drone, seconds: 2)
        #expect(drone.flightState == .hovering)
    }

    @Test(arguments: [(0.0, 0.0, 1.0), (90.0, 1.0, 0.0), (180.0, 0.0, -1.0), (270.0, -1.0, 0.0)])
    func negativePitchFliesForwardAlongHeading(headingDeg: Double, east: Double, north: Double) {
        var drone = DroneHarness.makeDrone(headingDeg: headingDeg)
        DroneHarness.takeOff(&drone)
        drone.applyProgressiveCommand(DroneHarness.pcmd(pitch: -0.5))
        DroneHarness.run(&drone, seconds: 4)
        #expect(drone.flightState == .flying)
        // About 2.5 m/s after the lag: ~7–10 m along the heading, nothing across it.
        #expect(drone.eastM * east + drone.northM * north > 5)
        #expect(abs(drone.eastM * north - drone.northM * east) < 0.1)
        #expect(abs(drone.groundSpeedMps - 2.5) < 0.3)
    }

    @Test func positiveRollFliesRight() {
        var drone = DroneHarness.makeDrone(headingDeg: 0)
        DroneHarness.takeOff(&drone)
        drone.applyProgressiveCommand(DroneHarness.pcmd(roll: 0.4))
        DroneHarness.run(&drone, seconds: 3)
        #expect(drone.eastM > 3)
        #expect(abs(drone.northM) < 0.1)
        #expect(drone.rollDeg > 0)
    }

    @Test func positiveYawTurnsClockwiseAtAboutHundredDegreesPerSecond() {
        var drone = DroneHarness.makeDrone(headingDeg: 10)
        DroneHarness.takeOff(&drone)
        drone.applyProgressiveCommand(DroneHarness.pcmd(yaw: 0.5))
        DroneHarness.run(&drone, seconds: 1)
        // 50 °/s minus the 0.2 s lag: about 40° clockwise.
        #expect(drone.headingDeg > 45 && drone.headingDeg < 62)
    }

    @Test func gazClimbsAndStopsAtAltitudeMax() {
        var drone = DroneHarness.makeDrone()
        DroneHarness.takeOff(&drone)
        drone.applyProgressiveCommand(DroneHarness.pcmd(gaz: 1))
        DroneHarness.run(&drone, seconds: 1)
        #expect(drone.verticalSpeedMps > 0.6)
        DroneHarness.run(&drone, seconds: 5)
        #expect(drone.altitudeM == 3)
    }

    @Test func flagZeroHoverBrakesAndHoldsPosition() {
        var drone = DroneHarness.makeDrone()
        DroneHarness.takeOff(&drone)
        drone.applyProgressiveCommand(DroneHarness.pcmd(pitch: -1))
        DroneHarness.run(&drone, seconds: 3)
        #expect(drone.groundSpeedMps > 4)
        drone.applyProgressiveCommand(.hover)
        DroneHarness.run(&drone, seconds: 4)
        #expect(drone.flightState == .hovering)
        #expect(drone.groundSpeedMps < 0.05)
        let northM = drone.northM
        DroneHarness.run(&drone, seconds: 5)
        #expect(abs(drone.northM - northM) < 0.05)
    }

    @Test func landingDescendsToTheGround() {
        var drone = DroneHarness.makeDrone()
        DroneHarness.takeOff(&drone)
        drone.applyReference(bits: DroneHarness.landBits)
        drone.step(dtS: 0.01)
        #expect(drone.flightState == .landing)
        DroneHarness.run(&drone, seconds: 4)
        #expect(drone.flightState == .landed)
        #expect(drone.altitudeM == 0)
        #expect(!drone.areMotorsOn)
    }

    @Test func emergencyCutsMotorsAndNeedsAnotherToggle() {
        var drone = DroneHarness.makeDrone()
        DroneHarness.takeOff(&drone)
        drone.applyReference(bits: DroneHarness.takeoffBits | SimulatedDrone.emergencyBit)
        #expect(drone.isEmergency)
        #expect(!drone.areMotorsOn)
        DroneHarness.run(&drone, seconds: 1)
        #expect(drone.altitudeM == 0)
        // Holding the bit does not toggle it back; neither does releasing it.
        drone.applyReference(bits: DroneHarness.landBits | SimulatedDrone.emergencyBit)
        drone.applyReference(bits: DroneHarness.landBits)
        #expect(drone.isEmergency)
        DroneHarness.run(&drone, seconds: 1)
        #expect(drone.flightState == .landed)
        drone.applyReference(bits: DroneHarness.landBits | SimulatedDrone.emergencyBit)
        #expect(!drone.isEmergency)
    }

    @Test func windPushesASteeringDroneAndBarelyMovesAHoveringOne() {
        var steering = DroneHarness.makeDrone { $0.wind = Wind(speedMps: 2, fromDeg: 270) }
        DroneHarness.takeOff(&steering)
        steering.applyProgressiveCommand(DroneHarness.pcmd())
        DroneHarness.run(&steering, seconds: 5)
        // From the west → pushed east at close to the wind speed.
        #expect(steering.velocityEastMps > 1.8)
        #expect(abs(steering.velocityNorthMps) < 0.01)

        var hovering = DroneHarness.makeDrone { $0.wind = Wind(speedMps: 2, fromDeg: 270) }
        DroneHarness.takeOff(&hovering)
        let eastM = hovering.eastM
        DroneHarness.run(&hovering, seconds: 5)
        #expect(hovering.eastM > eastM)
        #expect(hovering.eastM - eastM < 1)
    }

    @Test func batteryDrainsSetsLowFlagAndAutoLands() {
        var drone = DroneHarness.makeDrone { $0.batteryMinutes = 1 }
        DroneHarness.run(&drone, seconds: 10)
        let landedDrain = 100 - drone.batteryPct
        #expect(landedDrain > 0 && landedDrain < 3)
        DroneHarness.takeOff(&drone)
        DroneHarness.run(&drone, seconds: 45)
        #expect(drone.isLowBattery)
        #expect(drone.areMotorsOn)
        DroneHarness.run(&drone, seconds: 20)
        #expect(drone.flightState == .landed)
        #expect(drone.batteryPct <= 5)
        // Still holding "fly" does not take off again with a flat battery.
        DroneHarness.run(&drone, seconds: 2)
        #expect(drone.flightState == .landed)
    }

    @Test func lostLinkHoversThenLandsAndIgnoresCommands() {
        var drone = DroneHarness.makeDrone()
        DroneHarness.takeOff(&drone)
        drone.applyProgressiveCommand(DroneHarness.pcmd(pitch: -1))
        drone.setLinkLost(true)
        drone.applyProgressiveCommand(DroneHarness.pcmd(pitch: -1))
        DroneHarness.run(&drone, seconds: 2)
        #expect(drone.flightState == .hovering)
        #expect(drone.minorState == MinorState.hoveringLostCom)
        #expect(drone.groundSpeedMps < 0.01)
        DroneHarness.run(&drone, seconds: 5)
        #expect(drone.flightState == .landed)
        // Link back with the fly bit still held: no bounce until the client releases bit 9.
        drone.setLinkLost(false)
        drone.applyReference(bits: DroneHarness.takeoffBits)
        DroneHarness.run(&drone, seconds: 1)
        #expect(drone.flightState == .landed)
        drone.applyReference(bits: DroneHarness.landBits)
        drone.applyReference(bits: DroneHarness.takeoffBits)
        DroneHarness.run(&drone, seconds: 0.1)
        #expect(drone.flightState == .takingOff)
    }

    @Test func flatTrimOnlyOnTheGround() {
        var drone = DroneHarness.makeDrone()
        DroneHarness.takeOff(&drone)
        let trimmedInFlight = drone.applyFlatTrim()
        #expect(!trimmedInFlight)
        #expect(!drone.isFlatTrimmed)
        drone.applyReference(bits: DroneHarness.landBits)
        DroneHarness.run(&drone, seconds: 4)
        let trimmedOnGround = drone.applyFlatTrim()
        #expect(trimmedOnGround)
        #expect(drone.isFlatTrimmed)
    }

    @Test func garbageCommandValuesAreClamped() {
        let command = ProgressiveCommand(flag: 1, roll: .nan, pitch: -7, gaz: .infinity, yaw: 0.3)
        #expect(command == ProgressiveCommand(flag: 1, roll: 0, pitch: -1, gaz: 1, yaw: 0.3))
    }
}
