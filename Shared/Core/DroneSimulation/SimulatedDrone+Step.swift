#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Clocks
import Navigation

extension SimulatedDrone {
    static let gravityMps2 = 9.81

    /// Advances the simulation by `dtS` seconds. Non-positive or non-finite steps are ignored.
    public mutating func step(dtS: Double) {
        guard dtS > 0, dtS.isFinite else { return }
        elapsedS += dtS
        if isLinkLost { linkLostForS += dtS }
        drainBattery(dtS: dtS)
        updateFlightState()
        if areMotorsOn {
            stepPoweredFlight(dtS: dtS)
        } else {
            stepUnpowered(dtS: dtS)
        }
    }

    /// Advances by `duration` in steps of at most `maxStep` (whole microseconds of each). A gap longer than 10 s
    /// (suspended process, clock jump) is not replayed in full.
    public mutating func advance(by duration: Duration, maxStep: Duration) {
        var remainingUs = min(duration.us, 10_000_000)
        let stepUs = max(maxStep.us, 1)
        while remainingUs > 0 {
            let chunkUs = min(remainingUs, stepUs)
            step(dtS: Double(chunkUs) / 1_000_000)
            remainingUs -= chunkUs
        }
    }

    mutating func drainBattery(dtS: Double) {
        let flightDrainPctPerS = 100 / max(parameters.batteryMinutes * 60, 1)
        let rate = areMotorsOn ? flightDrainPctPerS : flightDrainPctPerS * parameters.landedDrainFraction
        batteryPct = max(0, batteryPct - rate * dtS)
    }

    mutating func updateFlightState() {
        guard !isEmergency else { return }
        let batteryCritical = batteryPct <= parameters.criticalBatteryPct
        switch flightState {
        case .landed:
            if isFlyBitHeld, !isTakeoffInhibited, !isLinkLost, !batteryCritical, altitudeM <= 0 {
                flightState = .takingOff
                minorState = MinorState.takeoffGround
            }
        case .takingOff:
            minorState = MinorState.takeoffAuto
            if batteryCritical {
                beginLanding(automatic: true)
            } else if !isFlyBitHeld, !isLinkLost {
                beginLanding(automatic: false)
            } else if altitudeM + takeoffCoastM >= parameters.takeoffAltitudeM {
                flightState = .hovering
                minorState = MinorState.ok
            }
        case .hovering, .flying:
            if isLinkLost {
                flightState = .hovering
                minorState = MinorState.hoveringLostCom
                if linkLostForS >= parameters.linkLossHoverS { beginLanding(automatic: true) }
            } else if batteryCritical {
                beginLanding(automatic: true)
            } else if !isFlyBitHeld {
                beginLanding(automatic: false)
            } else {
                flightState = command.isProgressive ? .flying : .hovering
                minorState = MinorState.ok
            }
        case .landing:
            break
        }
    }

    mutating func beginLanding(automatic: Bool) {
        flightState = .landing
        minorState = MinorState.landingClosedLoop
        if automatic { isTakeoffInhibited = true }
    }

    /// Motors on: velocities follow their targets with first-order lags.
    mutating func stepPoweredFlight(dtS: Double) {
        let steering = flightState == .flying && command.isProgressive && !isLinkLost
        let wind = parameters.wind.velocityEastNorthMps
        var targetEast: Double
        var targetNorth: Double
        if steering {
            // Attitude control (AR.Drone): the tilt sets the speed through the air and the wind carries it along.
            // Velocity control (PX4 offboard): the autopilot holds the ground velocity whatever the wind.
            let forward = -command.pitch * parameters.maxSpeedMps
            let right = command.roll * parameters.maxSpeedMps
            let headingRad = headingDeg * .pi / 180
            let drift = parameters.holdsGroundVelocity ? (east: 0.0, north: 0.0) : wind
            targetEast = forward * sin(headingRad) + right * cos(headingRad) + drift.east
            targetNorth = forward * cos(headingRad) - right * sin(headingRad) + drift.north
        } else {
            // Vision hover: brakes to (almost) zero ground speed; a little wind still gets through.
            targetEast = wind.east * parameters.hoverResidualDriftFraction
            targetNorth = wind.north * parameters.hoverResidualDriftFraction
        }
        let velocityGain = lagGain(dtS: dtS, timeConstantS: parameters.velocityTimeConstantS)
        velocityEastMps += (targetEast - velocityEastMps) * velocityGain
        velocityNorthMps += (targetNorth - velocityNorthMps) * velocityGain

        let attitudeGain = lagGain(dtS: dtS, timeConstantS: parameters.attitudeTimeConstantS)
        pitchDeg += ((steering ? command.pitch * parameters.maxTiltDeg : 0) - pitchDeg) * attitudeGain
        rollDeg += ((steering ? command.roll * parameters.maxTiltDeg : 0) - rollDeg) * attitudeGain

        let yawGain = lagGain(dtS: dtS, timeConstantS: parameters.yawRateTimeConstantS)
        yawRateDegPerS += ((steering ? command.yaw * parameters.maxYawRateDegPerS : 0) - yawRateDegPerS) * yawGain
        headingDeg = Geodesy.wrapDeg360(headingDeg + yawRateDegPerS * dtS)

        let verticalGain = lagGain(dtS: dtS, timeConstantS: parameters.verticalTimeConstantS)
        verticalSpeedMps += (targetVerticalSpeedMps(steering: steering) - verticalSpeedMps) * verticalGain

        eastM += velocityEastMps * dtS
        northM += velocityNorthMps * dtS
        altitudeM += verticalSpeedMps * dtS
        clampAltitude()
    }

    /// How far the climb coasts once it ends (the lag's first-order decay covers speed × time constant); 0 unless
    /// the takeoff is to stop at its altitude (`takeoffStopsAtAltitude`).
    var takeoffCoastM: Double {
        parameters.takeoffStopsAtAltitude ? max(0, verticalSpeedMps) * parameters.verticalTimeConstantS : 0
    }

    func targetVerticalSpeedMps(steering: Bool) -> Double {
        switch flightState {
        case .takingOff: parameters.takeoffClimbRateMps
        case .landing: -parameters.landingDescentRateMps
        case .flying, .hovering: steering ? command.gaz * parameters.maxClimbRateMps : 0
        case .landed: 0
        }
    }

    mutating func clampAltitude() {
        if flightState == .landing, altitudeM <= 0 {
            touchDown()
            flightState = .landed
            minorState = MinorState.ok
            return
        }
        let floorM = flightState == .takingOff || flightState == .landing ? 0 : parameters.altitudeMinM
        if altitudeM > parameters.altitudeMaxM, flightState != .takingOff {
            altitudeM = parameters.altitudeMaxM
            verticalSpeedMps = min(verticalSpeedMps, 0)
        } else if altitudeM < floorM {
            altitudeM = floorM
            verticalSpeedMps = max(verticalSpeedMps, 0)
        }
    }

    /// Motors off: it falls, drifting with the wind, and rests on the ground.
    mutating func stepUnpowered(dtS: Double) {
        guard altitudeM > 0 else {
            touchDown()
            return
        }
        let wind = parameters.wind.velocityEastNorthMps
        let dragGain = lagGain(dtS: dtS, timeConstantS: 1)
        velocityEastMps += (wind.east - velocityEastMps) * dragGain
        velocityNorthMps += (wind.north - velocityNorthMps) * dragGain
        verticalSpeedMps -= SimulatedDrone.gravityMps2 * dtS
        eastM += velocityEastMps * dtS
        northM += velocityNorthMps * dtS
        altitudeM += verticalSpeedMps * dtS
        if altitudeM <= 0 { touchDown() }
    }

    mutating func touchDown() {
        altitudeM = 0
        velocityEastMps = 0
        velocityNorthMps = 0
        verticalSpeedMps = 0
        yawRateDegPerS = 0
        pitchDeg = 0
        rollDeg = 0
    }

    func lagGain(dtS: Double, timeConstantS: Double) -> Double {
        guard timeConstantS > 0 else { return 1 }
        return 1 - exp(-dtS / timeConstantS)
    }
}
