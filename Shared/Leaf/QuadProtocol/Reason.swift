/// Why the controller did what it last did, or why it refused what it was sent: `ControllerState.reason`.
///
/// On the wire a reason is its code (str8, kebab-case, at most 64 bytes; empty = none), the same bytes as before
/// the type existed. `Reason.table` is the one list: each row is a case, its code, what it says about a request
/// (accepted, refused, failed, a failsafe, or an event of the flight), the request it answers and a plain-words
/// text. The ground tools ask these properties (`isRefusal`, `answers(_:)`); nothing matches codes by text. The
/// map page's table (web/map/vocabulary.js) and PROTOCOL.md's list are generated from this one and checked by
/// MapVocabularyTests and ReasonTableTests. Adding a reason: its case below and its row in `table`.
///
/// Composite reasons are distinct cases, one row each (`pilot-lost-return`, `ground-link-lost-return`,
/// `command-for-previous-run`, `target-for-previous-run`, `claim-for-previous-run`, every `…-refused-…`): the code
/// stays a plain table lookup on both sides (Swift and JavaScript), and a property says what the parts said
/// (`isForPreviousRun`, `answers(_:)`).
///
/// A code this build does not know (a newer controller) decodes to `.unknown(code)`: kept and re-encoded as it
/// came, shown as its code, and answering no request.
public enum Reason: Hashable, Sendable {
    /// No reason (empty code): a controller that just started.
    case unspecified

    // Requests accepted.
    case takeoff, land, hover, emergency, reset, flatTrim, returnHome
    case newTarget, targetStored, controlGranted, controlReleased, targetAroundZone

    // Commands refused.
    case notPilot, commandRetained, commandExpiredInQueue, commandForPreviousRun
    case takeoffRefusedEmergency, takeoffRefusedNoDroneState, takeoffRefusedBatteryLow, takeoffRefusedGroundLinkLost
    case landRefusedEmergency
    case hoverRefusedNotAirborne, hoverRefusedEmergency, hoverRefusedReturningHome, hoverRefusedNoDroneState
    case resetRefusedNotInEmergency
    case flatTrimRefusedNotLanded
    case returnRefusedEmergency, returnRefusedNotAirborne, returnRefusedNoHome, returnRefusedNotProgressing
    case returnRefusedNoDroneState

    // Targets refused.
    case targetRetained, targetExpiredInQueue, targetInvalid, targetInvalidAltitude, targetForPreviousRun
    case targetRefusedEmergency, targetRefusedBatteryLow, targetRefusedGeofence, targetRefusedCeiling
    case targetRefusedKeepOut, targetRefusedOutsideInclusion, targetRefusedAirspaceMargin
    case targetRefusedAirspaceCeiling, targetRefusedAirspaceFloor, targetRefusedAirspaceLeg

    // Claims refused.
    case claimInvalidSender, claimRetained, claimRefused, claimForPreviousRun

    // Inputs refused that are no request (logged and counted by drone-controller, never published).
    case positionInvalid, navigationInvalid, navigationTargetMismatch, airspaceInvalid
    case missionUploadRefused, missionCommandRefused

    // Accepted, then given up.
    case takeoffTimeout, takeoffAbortedDroneLinkLost, targetExpired

    // Failsafes.
    case droneLinkLost, stalePosition, staleNavigation, droneEmergency
    case pilotLost, pilotLostReturn, groundLinkLost, groundLinkLostReturn
    case geofence, batteryLow, batteryLowReturn, batteryLowCannotReturn
    case windTooStrong, returnHomeNotProgressing, targetNotProgressing
    case airspaceBrake, airspaceBreach, missionBatteryReturn

    // Events of the flight.
    case airborne, arrived, leftArrivalRadius, navigationResumed, backInsideGeofence, homeReached, returnedHome
    case clearOfAirspaceZone, targetAwaitingAirspacePaths
    case landed, droneLanding, droneLanded, droneAirborne, resetComplete
    case pilotBack, groundLinkBack
    case resumedInFlight, resumedLanding, resumedReturn, resumedTarget, resumedTargetExpired

    /// A code this build does not know (from a newer controller), as it came.
    case unknown(String)
}

extension Reason {
    /// What a reason says about the request it answers, or that it answers none.
    public enum Outcome: String, Sendable, CaseIterable {
        /// The request was taken.
        case accepted
        /// The request was not acted on.
        case refused
        /// The request was taken, then given up by the controller (`takeoff-timeout`).
        case failed
        /// A safety rule acted (no request of the ground's).
        case failsafe
        /// A step of the flight (no request of the ground's).
        case event
    }

    /// The request a reason answers.
    public enum Subject: Hashable, Sendable {
        case command(Command.Kind)
        /// Every command (`command-retained`, `command-for-previous-run`).
        case anyCommand
        case target
        /// A claim or release of pilot control.
        case claim
        /// Any command, target or claim (`not-pilot`).
        case anyRequest

        /// The JavaScript table's spelling: the command's word, `command`, `target`, `claim` or `any`.
        public var word: String {
            switch self {
            case .command(let kind): kind.word
            case .anyCommand: "command"
            case .target: "target"
            case .claim: "claim"
            case .anyRequest: "any"
            }
        }
    }

    /// A request a ground tool sent and waits an answer to.
    public enum Request: Hashable, Sendable {
        case command(Command.Kind)
        case target
        /// A claim or a release of pilot control.
        case claim
    }

    /// One row of the table.
    public struct Row: Sendable {
        public let reason: Reason
        public let code: String
        public let outcome: Outcome
        public let subject: Subject?
        public let text: String

        init(_ reason: Reason, _ code: String, _ outcome: Outcome, _ subject: Subject?, _ text: String) {
            (self.reason, self.code, self.outcome, self.subject, self.text) = (reason, code, outcome, subject, text)
        }
    }

    /// Every reason the controller can give, one row each (the order of PROTOCOL.md and web/map/vocabulary.js).
    public static let table: [Row] = [
        Row(.unspecified, "", .event, nil, "no reason given yet"),
        // Requests accepted.
        Row(.takeoff, "takeoff", .accepted, .command(.takeoff), "takeoff accepted: taking off"),
        Row(.land, "land", .accepted, .command(.land), "land accepted: landing"),
        Row(.hover, "hover", .accepted, .command(.hover), "hover accepted: holding position"),
        Row(.emergency, "emergency", .accepted, .command(.emergency), "emergency ordered: motors cut"),
        Row(.reset, "reset", .accepted, .command(.reset), "reset accepted: recovering from the emergency"),
        Row(.flatTrim, "flat-trim", .accepted, .command(.flatTrim), "flat trim accepted: sensors levelled"),
        Row(.returnHome, "return", .accepted, .command(.returnHome), "return accepted: flying home"),
        Row(.newTarget, "new-target", .accepted, .target, "new target accepted: flying to it"),
        Row(.targetStored, "target-stored", .accepted, .target, "target kept for the next takeoff"),
        Row(.targetAroundZone, "target-around-zone", .accepted, .target,
            "new target accepted: flying to it around a keep-out zone, leg by leg"),
        Row(.controlGranted, "control-granted", .accepted, .claim, "pilot control granted"),
        Row(.controlReleased, "control-released", .accepted, .claim, "pilot control released"),
        // Commands refused.
        Row(.notPilot, "not-pilot", .refused, .anyRequest, "refused: another sender holds pilot control"),
        Row(.commandRetained, "command-retained", .refused, .anyCommand,
            "command refused: a retained command is never obeyed"),
        Row(.commandExpiredInQueue, "command-expired-in-queue", .refused, .anyCommand,
            "command refused: it waited too long on the way"),
        Row(.commandForPreviousRun, "command-for-previous-run", .refused, .anyCommand,
            "command refused: sent to an earlier run of the controller"),
        Row(.takeoffRefusedEmergency, "takeoff-refused-emergency", .refused, .command(.takeoff),
            "takeoff refused: in emergency (reset first)"),
        Row(.takeoffRefusedNoDroneState, "takeoff-refused-no-drone-state", .refused, .command(.takeoff),
            "takeoff refused: no telemetry from the drone"),
        Row(.takeoffRefusedBatteryLow, "takeoff-refused-battery-low", .refused, .command(.takeoff),
            "takeoff refused: battery low"),
        Row(.takeoffRefusedGroundLinkLost, "takeoff-refused-ground-link-lost", .refused, .command(.takeoff),
            "takeoff refused: the ground link is lost (no beacon)"),
        Row(.landRefusedEmergency, "land-refused-emergency", .refused, .command(.land),
            "land refused: in emergency (reset first)"),
        Row(.hoverRefusedNotAirborne, "hover-refused-not-airborne", .refused, .command(.hover),
            "hover refused: not in the air"),
        Row(.hoverRefusedEmergency, "hover-refused-emergency", .refused, .command(.hover),
            "hover refused: in emergency"),
        Row(.hoverRefusedReturningHome, "hover-refused-returning-home", .refused, .command(.hover),
            "hover refused: returning home (land or wait)"),
        Row(.hoverRefusedNoDroneState, "hover-refused-no-drone-state", .refused, .command(.hover),
            "hover refused: no telemetry from the drone yet (whether it flies is unknown)"),
        Row(.resetRefusedNotInEmergency, "reset-refused-not-in-emergency", .refused, .command(.reset),
            "reset refused: not in emergency"),
        Row(.flatTrimRefusedNotLanded, "flat-trim-refused-not-landed", .refused, .command(.flatTrim),
            "flat trim refused: not landed"),
        Row(.returnRefusedEmergency, "return-refused-emergency", .refused, .command(.returnHome),
            "return refused: in emergency"),
        Row(.returnRefusedNotAirborne, "return-refused-not-airborne", .refused, .command(.returnHome),
            "return refused: not in the air"),
        Row(.returnRefusedNoHome, "return-refused-no-home", .refused, .command(.returnHome),
            "return refused: no home position recorded (restarted without flight memory?)"),
        Row(.returnRefusedNotProgressing, "return-refused-not-progressing", .refused, .command(.returnHome),
            "return refused: the last return made no progress"),
        Row(.returnRefusedNoDroneState, "return-refused-no-drone-state", .refused, .command(.returnHome),
            "return refused: no telemetry from the drone yet (whether it flies is unknown)"),
        // Targets refused.
        Row(.targetRetained, "target-retained", .refused, .target, "target refused: a retained target is never flown"),
        Row(.targetExpiredInQueue, "target-expired-in-queue", .refused, .target,
            "target refused: it waited too long on the way"),
        Row(.targetInvalid, "target-invalid", .refused, .target, "target refused: invalid values"),
        Row(.targetInvalidAltitude, "target-invalid-altitude", .refused, .target,
            "target refused: negative or non-finite altitude"),
        Row(.targetForPreviousRun, "target-for-previous-run", .refused, .target,
            "target refused: sent to an earlier run of the controller"),
        Row(.targetRefusedEmergency, "target-refused-emergency", .refused, .target, "target refused: in emergency"),
        Row(.targetRefusedBatteryLow, "target-refused-battery-low", .refused, .target,
            "target refused: battery low, the failsafe runs its course"),
        Row(.targetRefusedGeofence, "target-refused-geofence", .refused, .target,
            "target refused: outside the geofence"),
        Row(.targetRefusedCeiling, "target-refused-ceiling", .refused, .target,
            "target refused: above the maximum altitude"),
        // The uploaded airspace (issue 38): the zone's name is in the airspace status (`AirspaceStatus`).
        Row(.targetRefusedKeepOut, "target-refused-keep-out", .refused, .target,
            "target refused: inside a keep-out zone"),
        Row(.targetRefusedOutsideInclusion, "target-refused-outside-inclusion", .refused, .target,
            "target refused: outside every inclusion zone"),
        Row(.targetRefusedAirspaceMargin, "target-refused-airspace-margin", .refused, .target,
            "target refused: closer to a zone's edge than the airspace's margin"),
        Row(.targetRefusedAirspaceCeiling, "target-refused-airspace-ceiling", .refused, .target,
            "target refused: above the airspace's ceiling"),
        Row(.targetRefusedAirspaceFloor, "target-refused-airspace-floor", .refused, .target,
            "target refused: below the airspace's floor"),
        Row(.targetRefusedAirspaceLeg, "target-refused-airspace-leg", .refused, .target,
            "target refused: the straight leg to it meets a keep-out zone or leaves the inclusion zones"),
        // Claims refused.
        Row(.claimInvalidSender, "claim-invalid-sender", .refused, .claim, "claim refused: invalid sender id"),
        Row(.claimRetained, "claim-retained", .refused, .claim, "claim refused: a retained claim is never obeyed"),
        Row(.claimRefused, "claim-refused", .refused, .claim, "claim refused: another sender holds pilot control"),
        Row(.claimForPreviousRun, "claim-for-previous-run", .refused, .claim,
            "claim refused: sent to an earlier run of the controller"),
        // Inputs refused that are no request (logged and counted, never published).
        Row(.positionInvalid, "position-invalid", .refused, nil,
            "position fix refused: invalid values (not published)"),
        Row(.navigationInvalid, "navigation-invalid", .refused, nil,
            "navigation solution refused: invalid values (not published)"),
        Row(.navigationTargetMismatch, "navigation-target-mismatch", .refused, nil,
            "navigation solution refused: for another target (not published)"),
        Row(.airspaceInvalid, "airspace-invalid", .refused, nil,
            "airspace upload refused: invalid zones (in the airspace status, not the controller's)"),
        Row(.missionUploadRefused, "mission-upload-refused", .refused, nil,
            "mission upload refused: breaks the board's limits, or a mission is under way (the item in the log)"),
        Row(.missionCommandRefused, "mission-command-refused", .refused, nil,
            "mission command refused: for another plan, not the pilot's, or not now (why in the log)"),
        // Accepted, then given up.
        Row(.takeoffTimeout, "takeoff-timeout", .failed, .command(.takeoff),
            "takeoff failed: not confirmed, or its climb not over, in time; landing"),
        Row(.takeoffAbortedDroneLinkLost, "takeoff-aborted-drone-link-lost", .failed, .command(.takeoff),
            "takeoff aborted: drone telemetry lost; landing"),
        Row(.targetExpired, "target-expired", .failed, .target, "the target's time to live ran out: hovering"),
        // Failsafes.
        Row(.droneLinkLost, "drone-link-lost", .failsafe, nil, "drone telemetry lost: hovering"),
        Row(.stalePosition, "stale-position", .failsafe, nil, "no fresh position fix: hovering"),
        Row(.staleNavigation, "stale-navigation", .failsafe, nil, "no fresh navigation solution: hovering"),
        Row(.droneEmergency, "drone-emergency", .failsafe, nil, "the drone reports an emergency"),
        Row(.pilotLost, "pilot-lost", .failsafe, nil, "the pilot went offline: hovering"),
        Row(.pilotLostReturn, "pilot-lost-return", .failsafe, nil, "the pilot is still offline: returning home"),
        Row(.groundLinkLost, "ground-link-lost", .failsafe, nil, "no ground beacon: hovering"),
        Row(.groundLinkLostReturn, "ground-link-lost-return", .failsafe, nil,
            "still no ground beacon: returning home"),
        Row(.geofence, "geofence", .failsafe, nil, "outside the geofence: returning inside or landing"),
        Row(.batteryLow, "battery-low", .failsafe, nil, "battery low: landing"),
        Row(.batteryLowReturn, "battery-low-return", .failsafe, nil, "battery low: returning home while it can"),
        Row(.batteryLowCannotReturn, "battery-low-cannot-return", .failsafe, nil,
            "battery low and too far to return: landing here"),
        Row(.windTooStrong, "wind-too-strong", .failsafe, nil, "wind too strong to fly home against: landing"),
        Row(.returnHomeNotProgressing, "return-home-not-progressing", .failsafe, nil,
            "the return home made no progress: hovering, then landing"),
        Row(.targetNotProgressing, "target-not-progressing", .failsafe, nil,
            "the flight to the target made no progress: hovering"),
        Row(.airspaceBrake, "airspace-brake", .failsafe, nil,
            "about to come within half the margin of a zone: braked to a hover, target dropped"),
        Row(.airspaceBreach, "airspace-breach", .failsafe, nil,
            "in a zone it may not be in, or within half its margin: flying out (or landing)"),
        Row(.missionBatteryReturn, "mission-battery-return", .failsafe, nil,
            "the battery no longer covers the rest of the mission: mission aborted, returning home"),
        // Events of the flight.
        Row(.airborne, "airborne", .event, nil, "the drone reports flying"),
        Row(.arrived, "arrived", .event, nil, "arrived at the target"),
        Row(.leftArrivalRadius, "left-arrival-radius", .event, nil, "drifted off the target: flying back"),
        Row(.navigationResumed, "navigation-resumed", .event, nil, "navigation solutions are back: flying on"),
        Row(.backInsideGeofence, "back-inside-geofence", .event, nil, "back inside the geofence"),
        Row(.clearOfAirspaceZone, "clear-of-airspace-zone", .event, nil, "out of the zone and its margin: hovering"),
        Row(.targetAwaitingAirspacePaths, "target-awaiting-airspace-paths", .event, nil,
            "hovering, target kept: its leg meets a zone and the paths around the zones are still being built"),
        Row(.homeReached, "home-reached", .event, nil, "over home: hovering before landing"),
        Row(.returnedHome, "returned-home", .event, nil, "returned home: landing"),
        Row(.landed, "landed", .event, nil, "landed"),
        Row(.droneLanding, "drone-landing", .event, nil, "the drone reports landing"),
        Row(.droneLanded, "drone-landed", .event, nil, "the drone reports landed"),
        Row(.droneAirborne, "drone-airborne", .event, nil, "found flying after a restart: landing"),
        Row(.resetComplete, "reset-complete", .event, nil, "recovered from the emergency: landed"),
        Row(.pilotBack, "pilot-back", .event, nil, "the pilot is back online"),
        Row(.groundLinkBack, "ground-link-back", .event, nil, "ground beacons are back"),
        Row(.resumedInFlight, "resumed-in-flight", .event, nil, "controller restarted in flight: hovering"),
        Row(.resumedLanding, "resumed-landing", .event, nil, "controller restarted while landing: landing"),
        Row(.resumedReturn, "resumed-return", .event, nil, "controller restarted while returning: returning home"),
        Row(.resumedTarget, "resumed-target", .event, nil, "controller restarted: flying on to the target"),
        Row(.resumedTargetExpired, "resumed-target-expired", .event, nil,
            "controller restarted: the target had expired, hovering"),
    ]

    private static let rows: [Reason: Row] = Dictionary(table.map { ($0.reason, $0) },
                                                        uniquingKeysWith: { first, _ in first })
    private static let byCode: [String: Reason] = Dictionary(table.map { ($0.code, $0.reason) },
                                                             uniquingKeysWith: { first, _ in first })

    /// The reason a wire code names; `.unknown(code)` when this build does not know it. Never fails.
    public init(code: String) {
        self = Self.byCode[code] ?? .unknown(code)
    }

    /// This reason's row; nil for `.unknown`.
    public var row: Row? {
        if case .unknown = self { return nil }
        guard let row = Self.rows[self] else {
            assertionFailure("Reason.\(self) has no row in Reason.table")
            return nil
        }
        return row
    }

    /// The code on the wire (kebab-case; empty for `.unspecified`).
    public var code: String {
        if case .unknown(let code) = self { return code }
        return row?.code ?? ""
    }

    /// Plain words for people.
    public var text: String {
        if case .unknown(let code) = self { return "reason '\(code)' (unknown to this version)" }
        return row?.text ?? ""
    }

    /// What it says about the request it answers; an unknown reason is an event.
    public var outcome: Outcome { row?.outcome ?? .event }

    /// The request it answers; nil when none.
    public var subject: Subject? { row?.subject }

    /// The controller did not act on what it was sent.
    public var isRefusal: Bool { outcome == .refused }

    /// The controller took a request, then gave it up.
    public var isFailure: Bool { outcome == .failed }

    /// A safety rule acted.
    public var isFailsafe: Bool { outcome == .failsafe }

    /// Refused because it was addressed to an earlier run of the controller (it restarted meanwhile).
    public var isForPreviousRun: Bool {
        switch self {
        case .commandForPreviousRun, .targetForPreviousRun, .claimForPreviousRun: true
        default: false
        }
    }

    /// Whether this reason answers `request` (accepts, refuses or gives it up).
    public func answers(_ request: Request) -> Bool {
        switch (subject, request) {
        case (.anyRequest?, _): true
        case (.anyCommand?, .command): true
        case (.command(let mine)?, .command(let theirs)): mine == theirs
        case (.target?, .target), (.claim?, .claim): true
        default: false
        }
    }
}

extension Reason: CustomStringConvertible {
    /// The code, as logs and screens show it.
    public var description: String { code }
}
