import Clocks
import Navigation
import QuadProtocol

/// One flight, from takeoff (or a flight resumed after a restart) until navdata shows the drone landed. The
/// controller holds one only while a flight exists (`ControllerStateMachine.flight`): landing drops it, so the
/// next takeoff starts from fresh values, never from a flag the last flight left.
struct Flight: Sendable {
    /// Position at takeoff; the geofence is centred here. Nil until a fresh fix is known.
    var home: GeoPoint?
    /// Home may be taken from the first fix in the air (a takeoff this run saw, with no fix on the ground yet);
    /// false for a flight resumed after a restart, whose home is the remembered one or none.
    var homeFromFirstFix = true
    /// The altitude to hold (navdata altitude, metres above ground); nil = none (plain hover, e.g. after a
    /// restart mid-flight until the next order).
    var wantedAltitudeM: Double?
    /// Battery drain and ground speed measured in this flight, for the low-battery return.
    var battery = BatteryBudget()
    /// The low-battery rule fired (it fires once: its return or landing then runs its course).
    var batteryFailsafeFired = false
    /// A return home lost ground and was given up: hover, then land; no new return is started.
    var returnAbandoned = false
    /// The pilot or the ground link went silent: its timers (taking off and airborne modes only).
    var pilotLoss = PilotLoss()
    /// Navdata went silent in the air and the hover was announced (once per silence).
    var droneLinkLostReported = false

    /// Drops what means nothing in the activity entered: the lost-pilot timers once landing or in emergency.
    mutating func entering(_ next: ControllerState.Activity) {
        if !next.isAirborne && next != .takingOff { pilotLoss.cancelTimers() }
    }
}

/// The lost-pilot policy's timers (hover, return home at `returnAt`, land at `landAt`) and what set them.
struct PilotLoss: Sendable, Equatable {
    /// `.pilotLost` or `.groundLinkLost`: the reasons of the return and the landing say which.
    var cause: Reason = .pilotLost
    var returnAt: MonotonicInstant?
    var landAt: MonotonicInstant?

    init() {}

    /// The timers the rule starts at a loss: land after `lostPilotLandAfter`, and return home first if
    /// `lostPilotReturnAfter` comes sooner.
    init(cause: Reason, now: MonotonicInstant, configuration: ControllerConfiguration) {
        self.cause = cause
        landAt = now.advanced(by: configuration.lostPilotLandAfter)
        if let returnAfter = configuration.failsafes.lostPilotReturnAfter,
           returnAfter < configuration.lostPilotLandAfter {
            returnAt = now.advanced(by: returnAfter)
        }
    }

    mutating func cancelTimers() {
        returnAt = nil
        landAt = nil
    }
}
