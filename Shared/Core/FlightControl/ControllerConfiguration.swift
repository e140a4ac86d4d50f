import Mission

/// Every threshold of the controller; the defaults follow the objc.io article where it had one.
public struct ControllerConfiguration: Sendable, Equatable {
    /// Steering gains, arrival radius, slowdown and hysteresis.
    public var controlLaw: ControlLaw
    public var windCompensation: WindCompensation
    /// Cruise altitude, ceiling, arrival tolerance and the gaz law.
    public var altitude: AltitudeHold
    /// What each failsafe does.
    public var failsafes: FailsafePolicy
    /// Altitude of a return home; nil = the higher of the cruise altitude and the current one.
    public var returnAltitudeM: Double?
    /// Over home after a return, hover this long (let the position settle), then land.
    public var returnHomeHover: Duration
    /// How often the executable should call `tick` (the link wants a fresh command about every 30 ms).
    public var tickHz: Double
    /// Taking off must be confirmed by navdata (the vehicle climbing, or in the air) within this time, else the
    /// controller lands.
    public var takeoffTimeout: Duration
    /// A confirmed climb must end in the air within this time, else the controller lands: PX4 SIH takes ~4.5 s
    /// from its "taking off" to its takeoff height idle, and was still climbing at 10 s on a busy machine.
    public var takeoffClimbTimeout: Duration = .seconds(30)
    /// Navigation solutions and position fixes older than this stop the drone (hover).
    public var staleAfter: Duration
    /// No DroneState for longer than this while airborne counts as a lost drone link.
    public var droneStateTimeout: Duration
    /// No DroneState for this long while taking off aborts the takeoff (lands): longer than `droneStateTimeout`,
    /// because aborting is not benign like a hover, and a busy board can stall navdata for a second (measured with
    /// the real PX4 on a loaded 2-core machine); a dead link is reported within 2 s, and mavlink-link's is at 3 s.
    public var takeoffNavdataLoss: Duration = .seconds(3)
    /// Below this battery level the drone lands and may not take off. This threshold rules: the AR.Drone's own
    /// VBAT_LOW bit (set by its firmware at about 20 %) is only reported, so a lower value means what it says.
    public var landBatteryPercent: UInt8
    /// Targets and drone positions farther than this from home are outside the geofence.
    public var geofenceRadiusM: Double
    /// Returning home ends this far inside the fence, so the drone does not hover on the boundary.
    public var geofenceReturnMarginM: Double
    /// On leaving the fence the drone first hovers this long to brake, then turns home.
    public var returnBrake: Duration
    /// After the pilot goes offline the drone hovers, returns home (`failsafes.lostPilotReturnAfter`), and lands
    /// this long after the loss if it has not returned by then (no home, return disabled or abandoned).
    public var lostPilotLandAfter: Duration
    /// Once a ground beacon has been heard, this long without one means the ground (the radio, the bridge) is gone:
    /// the same policy as a lost pilot (reason `ground-link-lost`). 0 = off.
    public var groundLinkTimeout: Duration
    /// A command older than this by its sender's own clock (read from the sender's beacons) waited in a queue —
    /// e.g. in a TCP connection across a short radio cut — and is refused (`command-expired-in-queue`).
    public var commandMaxAge: Duration
    /// A recovery or flight that keeps losing ground by more than this many metres…
    public var progressMarginM: Double
    /// …for this long is abandoned: the drone hovers (its own position hold) instead.
    public var progressTimeout: Duration
    /// After an abandoned return home the drone hovers this long, then lands where it is.
    public var abandonedReturnLandAfter: Duration
    /// Arrival is judged on the mean distance of the position fixes in this window…
    public var arrivalWindow: Duration
    /// …once it holds at least this many distinct fixes.
    public var arrivalMinimumFixes: Int
    /// A navigation solution belongs to the current target only if its coordinates match within this.
    public var targetMatchToleranceDeg: Double

    /// Ground speed the cruise tilt gives in still air: what a return is assumed to make before it is measured.
    var cruiseSpeedMps: Double { controlLaw.cruiseForwardFrac * windCompensation.fullTiltSpeedMps }
    /// The fastest a flight to a goal `distanceM` away asks for (`approachBrakingMps2`); infinity when not braked.
    /// `gainPerS`: the position law's gain in force (`positionGainPerS`, or `autopilotPositionGainPerS`).
    public func approachSpeedLimitMps(distanceM: Double, gainPerS: Double? = nil) -> Double {
        guard approachBrakingMps2 > 0, distanceM.isFinite else { return .infinity }
        let radiusM = controlLaw.slowdownRadiusM, atRadiusMps = (gainPerS ?? positionGainPerS) * radiusM
        return (atRadiusMps * atRadiusMps + 2 * approachBrakingMps2 * max(0, distanceM - radiusM)).squareRoot()
    }
    /// The fastest a plan's speed is flown: `--max-speed` when set, else the speed of the tilt cap in still air
    /// (0.6 × 5 m/s = 3 m/s on the AR.Drone; through mavlink-link the same velocity setpoint), which leaves the
    /// feedback room against a headwind. A faster plan (QGroundControl's default hover speed is 5 m/s) flies this.
    public var planSpeedLimitMps: Double {
        windCompensation.maxSpeedMps ?? windCompensation.maxTiltFrac * windCompensation.fullTiltSpeedMps
    }
    /// Over home after a return the drone comes down to this height under the position law before it lands: the
    /// landing's own descent is not steered and drifts with the wind (0.5 m/s down, ~5 % of the wind across).
    public var returnApproachAltitudeM: Double = 1
    /// Inside the slowdown radius: wanted ground speed per metre of position error (`PositionHold`), 1/s.
    public var positionGainPerS: Double = 0.3
    /// The same behind an autopilot cruise (`autopilotCruiseSpeedMps`) for a target or a plan leg: the autopilot
    /// holds the velocity and then the arrived target itself, so the last metres need not creep. At 0.3 the last
    /// 4 m of each leg took ~5 s, and a 6-item plan on PX4 took 1.25× PX4's own mission.
    public var autopilotPositionGainPerS: Double = 0.6
    /// Outside the slowdown radius a fast cruise is braked at this deceleration (m/s²) down to the position law's
    /// speed at the radius (`positionGainPerS` × the radius, 1.5 m/s): 5 m/s carried into the last 5 m overshot the
    /// real PX4 by 1.3–1.8 m and it settled there (its velocity loop, wound up by the cruise, answered the small
    /// corrections after it at ~0.3 m/s²). The article's 1 m/s is below that speed: untouched. 0: no braking.
    public var approachBrakingMps2: Double = 1.5
    /// Behind a vehicle link that holds the ground velocity it is given (mavlink-link): the cruise of a target and of
    /// a plan leg without a speed of its own, m/s (PX4's MPC_XY_CRUISE default), never above `--max-speed`; a plan's
    /// own speed is flown up to it too. The article's 0.2 tilt (1 m/s) is an air speed for the AR.Drone in wind; an
    /// autopilot holds the speed over the ground itself. nil: the tilt's speed there too. A return keeps the tilt's.
    public var autopilotCruiseSpeedMps: Double? = 5
    /// The mission executor's rules (issue 37): the lost-pilot rule during a mission, how often it persists.
    public var mission = MissionExecutor.Configuration()

    public init(controlLaw: ControlLaw = ControlLaw(), windCompensation: WindCompensation = WindCompensation(),
                altitude: AltitudeHold = AltitudeHold(), failsafes: FailsafePolicy = FailsafePolicy(),
                returnAltitudeM: Double? = nil, returnHomeHover: Duration = .zero, tickHz: Double = 30,
                takeoffTimeout: Duration = .seconds(10),
                staleAfter: Duration = .seconds(1), droneStateTimeout: Duration = .seconds(1),
                landBatteryPercent: UInt8 = 15,
                geofenceRadiusM: Double = 200, geofenceReturnMarginM: Double = 10,
                returnBrake: Duration = .seconds(1),
                lostPilotLandAfter: Duration = .seconds(30), groundLinkTimeout: Duration = .milliseconds(1500),
                commandMaxAge: Duration = .seconds(5),
                progressMarginM: Double = 3, progressTimeout: Duration = .seconds(3),
                abandonedReturnLandAfter: Duration = .zero, arrivalWindow: Duration = .seconds(1),
                arrivalMinimumFixes: Int = 3,
                targetMatchToleranceDeg: Double = 1e-7) {
        self.controlLaw = controlLaw
        self.windCompensation = windCompensation
        self.altitude = altitude
        self.failsafes = failsafes
        self.returnAltitudeM = returnAltitudeM
        self.returnHomeHover = returnHomeHover
        self.tickHz = tickHz
        self.takeoffTimeout = takeoffTimeout
        self.staleAfter = staleAfter
        self.droneStateTimeout = droneStateTimeout
        self.landBatteryPercent = landBatteryPercent
        self.geofenceRadiusM = geofenceRadiusM
        self.geofenceReturnMarginM = geofenceReturnMarginM
        self.returnBrake = returnBrake
        self.lostPilotLandAfter = lostPilotLandAfter
        self.groundLinkTimeout = groundLinkTimeout
        self.commandMaxAge = commandMaxAge
        self.progressMarginM = progressMarginM
        self.progressTimeout = progressTimeout
        self.abandonedReturnLandAfter = abandonedReturnLandAfter
        self.arrivalWindow = arrivalWindow
        self.arrivalMinimumFixes = arrivalMinimumFixes
        self.targetMatchToleranceDeg = targetMatchToleranceDeg
    }
}
