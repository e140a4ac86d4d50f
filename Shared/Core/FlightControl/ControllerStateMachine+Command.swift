import Clocks
import QuadProtocol

/// Pilot commands. Emergency is accepted from anyone, always; everything else only from the pilot (or from
/// anyone while nobody holds control) and only when sent to this run of the controller.
extension ControllerStateMachine {
    /// `retained`: the delivery's MQTT retain flag. A retained command was left on the broker by an earlier
    /// session (or a careless `mosquitto_pub -r`) and is never executed, emergency included: a retained
    /// emergency would cut the motors of every later flight the moment the controller subscribes.
    public mutating func command(_ command: Command, retained: Bool = false,
                                 now: MonotonicInstant) -> [ControllerAction] {
        if retained {
            return finish([refuse(kind: "command", reason: .commandRetained, now: now)], now: now)
        }
        // Emergency included: one queued for an earlier run would cut the motors whenever the queue drains.
        if let refusal = previousRunRefusal(kind: "command", reason: .commandForPreviousRun, what: command.kind.word,
                                            from: command.senderId, addressedTo: command.controllerRunId, now: now) {
            return finish(refusal, now: now)
        }
        // Emergency is exempt (from anyone, always); any other order that waited in a queue is not what was meant.
        if command.kind != .emergency,
           let age = senderClocks.age(senderId: command.senderId, stamp: WallInstant(us: command.timestampUs),
                                      now: now),
           age > configuration.commandMaxAge {
            return finish([refuse(kind: "command", reason: .commandExpiredInQueue, now: now),
                           .log(.warning, "\(command.kind.word) from '\(command.senderId)' is \(age.us / 1000) ms "
                               + "old by its sender's clock (> \(configuration.commandMaxAge.inSeconds) s): refused")],
                          now: now)
        }
        if command.kind == .emergency {
            if activity != .emergency || recoveringFromEmergency {
                enterEmergency(reason: .emergency, now: now)
            }
            return finish([.log(.warning, "emergency from '\(command.senderId)': motors cut")], now: now)
        }
        if let pilotId, command.senderId != pilotId {
            return finish([refuse(kind: "command", reason: .notPilot, now: now)], now: now)
        }
        // Every order gets an answer the sender can see, even one that changes nothing (`land` while landed): a
        // ground tool waiting for the controller must never time out on a command that was taken.
        mustPublish = true
        let answer: CommandAnswer
        switch command.kind {
        case .takeoff: answer = (takeoff(now: now), nil)
        case .land: answer = land(now: now)
        case .hover: answer = hover(now: now)
        case .reset: answer = reset(now: now)
        case .flatTrim: answer = flatTrim(now: now)
        case .returnHome: answer = returnHome(now: now)
        case .emergency: answer = ([], nil)
        }
        return finish(answer.actions + apply(answer.transition, now: now), now: now)
    }

    /// What a command's rule returns: its refusal (or nothing), and the transition it asks for, which `command`
    /// applies. A takeoff applies its own: the home it sets belongs to the flight that entering `.takingOff` starts.
    typealias CommandAnswer = (actions: [ControllerAction], transition: Transition?)

    mutating func takeoff(now: MonotonicInstant) -> [ControllerAction] {
        switch activity {
        case .emergency:
            return [refuse(kind: "command", reason: .takeoffRefusedEmergency, now: now)]
        case .unknown, .landed, .landing:
            guard let state = lastDroneState, droneStateFresh(now: now) else {
                return [refuse(kind: "command", reason: .takeoffRefusedNoDroneState, now: now)]
            }
            guard !isBatteryLow(state) else {
                return [refuse(kind: "command", reason: .takeoffRefusedBatteryLow, now: now)]
            }
            // The ground-link rule guards a flight only once it has seen a beacon; taking off while the beacon
            // it has seen is silent would start a flight no lost-link failsafe watches over. Refused instead.
            guard !isGroundLinkLost else {
                return [refuse(kind: "command", reason: .takeoffRefusedGroundLinkLost, now: now)]
            }
            apply(Transition(to: .takingOff, reason: .takeoff), now: now)
            if home == nil, let position = lastPosition, positionFresh(now: now) {
                // The fixes of the last seconds on the ground, averaged: one fix is off by the GPS noise.
                let home = setHome(groundPosition.mean ?? position, now: now)
                return home.actions + apply(home.transition, now: now)
            }
            return []
        case .takingOff, .hovering, .flyingToTarget, .arrived, .returningHome:
            return []
        }
    }

    mutating func land(now: MonotonicInstant) -> CommandAnswer {
        switch activity {
        case .emergency: return ([refuse(kind: "command", reason: .landRefusedEmergency, now: now)], nil)
        case .unknown:
            unknownLand()
            return ([], nil)
        case .landed, .landing: return ([], nil)
        case .takingOff, .hovering, .flyingToTarget, .arrived, .returningHome:
            return ([], Transition(to: .landing, reason: .land))
        }
    }

    /// Hover forgets the target: the broadcaster re-sends targets every second, so keeping it would fly
    /// on at once; to continue, send a target again.
    mutating func hover(now: MonotonicInstant) -> CommandAnswer {
        switch activity {
        case .landing where vehicleIsAirborne:
            // Landing with the vehicle still in the air: the operator may stop the descent and hold.
            clearTarget()
            return ([], Transition(to: .hovering, reason: .hover))
        case .unknown: return ([refuse(kind: "command", reason: .hoverRefusedNoDroneState, now: now)], nil)
        case .landed, .landing: return ([refuse(kind: "command", reason: .hoverRefusedNotAirborne, now: now)], nil)
        case .emergency: return ([refuse(kind: "command", reason: .hoverRefusedEmergency, now: now)], nil)
        case .returningHome: return ([refuse(kind: "command", reason: .hoverRefusedReturningHome, now: now)], nil)
        case .takingOff:
            clearTarget()
            return ([], .keeping(.takingOff, reason: .hover))
        case .hovering, .flyingToTarget, .arrived:
            clearTarget()
            return ([], Transition(to: .hovering, reason: .hover))
        }
    }
}
