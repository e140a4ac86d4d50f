import Clocks
import QuadProtocol

extension StatusBoard {
    /// The `--line` distance field: `dist 31.2 m`. During a return, `home dist 44.0 m`: the controller's distance,
    /// which is to home while it returns (the navigator's still measures to the dropped target).
    public static func progressDistance(activity: ControllerState.Activity?, navigationM: Double?,
                                        controllerM: Float?) -> String {
        if activity == .returningHome { return "home dist " + metres(controllerM.map { Double($0) }) }
        return "dist " + metres(navigationM ?? controllerM.map { Double($0) })
    }

    static func metres(_ distance: Double?) -> String {
        distance.map { TextFormat.fixed($0, digits: 1) + " m" } ?? "-"
    }

    /// One screen of plain text, lines joined by `\n`, each at most `StatusBoard.width` columns. `wall` (this
    /// host's wall clock) dates a service's uptime from the start its status names, a stamp of its host's wall
    /// clock (display only: off by the two clocks' difference); without it, from when this reader saw it online.
    public func render(now: MonotonicInstant, wall: WallInstant? = nil) -> String {
        let nowUs = now.us
        var lines: [String] = ["quadcopter \(drone.rawValue): status" + clockSuffix(), "", "SERVICES"]
        for name in serviceNames {
            lines.append(serviceLine(name, nowUs: nowUs, wall: wall))
        }
        lines += ["", "FLIGHT"]
        lines += flightLines(nowUs: nowUs)
        lines += ["", "LINK"]
        lines.append(linkLine(nowUs: nowUs))
        if let line = commandAckLine(nowUs: nowUs) { lines.append(line) }
        return lines.map { TextFormat.clean($0, width: Self.width).trimmingTrailingSpaces }.joined(separator: "\n")
    }

    func serviceLine(_ name: String, nowUs: Int64, wall: WallInstant?) -> String {
        // A longer name (a broadcaster's sender id, location-broadcaster-<host>) pushes the columns right rather
        // than being cut: it is what tells two pilots apart.
        let shown = TextFormat.clean(name, width: 40)
        let label = "  " + (shown.count >= 23 ? shown + " " : TextFormat.pad(shown, 23))
        guard let entry = services[name] else {
            if let since = watchingSince?.us, nowUs &- since < presenceWait.us {
                return label
                    + "waiting  (no status yet; re-announced every \(Int(ServiceStatus.reannounceIntervalS)) s)"
            }
            return label + "unknown  (no status seen)"
        }
        let p = entry.presence
        var line = label
        if p.online {
            let upUs = if let started = p.startedAt, let wall { wall.us &- started.us }
                else { nowUs &- (entry.changedAtUs ?? nowUs) }
            line += TextFormat.pad("online", 9) + TextFormat.pad("up " + TextFormat.age(us: upUs), 13)
        } else {
            let since = entry.changedAtUs.map { "for " + TextFormat.age(us: nowUs &- $0) } ?? "already"
            line += TextFormat.pad("OFFLINE", 9) + TextFormat.pad(since, 13)
        }
        if let version = p.version, !version.isEmpty { line += TextFormat.clean(version, width: 20) }
        return line
    }

    func flightLines(nowUs: Int64) -> [String] {
        var lines: [String] = []
        if let c = controller {
            var line = "  activity  " + TextFormat.pad(Self.name(c.value.activity), 17)
            if c.value.reason != .unspecified { line += "(" + TextFormat.clean(c.value.reason.code, width: 24) + ") " }
            line += "pilot " + (c.value.pilotId.isEmpty ? "none" : TextFormat.clean(c.value.pilotId, width: 16))
            lines.append(line + staleMark(c.receivedAtUs, nowUs))
        } else {
            lines.append("  activity  - (no controller state)")
        }
        if let d = droneState {
            let s = d.value
            let battery = TextFormat.padLeft("\(s.batteryPercent)", 3) + " %"
            let altitude = TextFormat.fixed(Double(s.altitudeM), digits: 1) + " m"
            lines.append("  battery   " + TextFormat.pad(battery, 8) + "altitude " + TextFormat.pad(altitude, 10)
                + "state " + TextFormat.pad(Self.name(s.controlState), 12) + "age "
                + TextFormat.age(us: nowUs &- d.receivedAtUs) + staleMark(d.receivedAtUs, nowUs))
        } else {
            lines.append("  battery   - (no drone telemetry)")
        }
        lines.append(targetLine(nowUs: nowUs))
        return lines
    }

    func targetLine(nowUs: Int64) -> String {
        if let c = controller, c.value.activity == .returningHome {
            // The controller's distance is to home while it returns; the navigator's is to the dropped target.
            let distance = c.value.distanceToTargetM.map { TextFormat.fixed(Double($0), digits: 1) + " m" }
                ?? "- (no position)"
            return "  home      distance " + distance + "  (returning home)" + staleMark(c.receivedAtUs, nowUs)
        }
        if let n = navigation {
            let s = n.value
            return "  target    "
                + TextFormat.coordinate(latitudeDeg: s.targetLatitudeDeg, longitudeDeg: s.targetLongitudeDeg)
                    + "  distance "
                + TextFormat.fixed(s.distanceM, digits: 1) + " m  bearing "
                + TextFormat.bearing(s.bearingDeg) + " deg" + staleMark(n.receivedAtUs, nowUs)
        }
        if let c = controller, let lat = c.value.targetLatitudeDeg, let lon = c.value.targetLongitudeDeg {
            let distance = c.value.distanceToTargetM.map { TextFormat.fixed(Double($0), digits: 1) + " m" } ?? "-"
            return "  target    " + TextFormat.coordinate(latitudeDeg: lat, longitudeDeg: lon)
                + "  distance " + distance + staleMark(c.receivedAtUs, nowUs)
        }
        return "  target    none"
    }

    /// The board's clock against this laptop's, from telemetry stamps, on the title line (the screen stays within
    /// 24 lines); a warning beyond 1 s: the two hosts' logs and exports will not line up.
    func clockSuffix() -> String {
        guard let clockOffset else { return "" }
        let seconds = Double(clockOffset.us) / 1_000_000
        let text = (seconds >= 0 ? "+" : "") + TextFormat.fixed(seconds, digits: 1) + " s"
        guard ClockOffsetEstimator.exceedsWarning(clockOffset) else { return "   board clock " + text }
        return "   CLOCK WARNING: board " + text + " from this laptop"
    }

    func linkLine(nowUs: Int64) -> String {
        guard let l = link else { return "  - (no link status)" }
        let s = l.value
        if let dead = linkDeath(now: MonotonicInstant(us: nowUs)) {
            return "  DEAD: " + dead + " (its last report below is history)"
        }
        var line = "  " + TextFormat.pad(s.connected ? "connected" : "DISCONNECTED", 13)
        line += "navdata " + TextFormat.fixed(Double(s.navdataPerSecond), digits: 1) + "/s  last "
            + "\(s.lastNavdataAgeMs) ms  " + Self.name(s.reason)
        if s.fallbackHover { line += "  FALLBACK HOVER" }
        return line + staleMark(l.receivedAtUs, nowUs)
    }

    /// `  autopilot takeoff DENIED 4s ago`: the link's last command to an autopilot (mavlink-link only); a refusal in
    /// capitals, like DISCONNECTED, so a takeoff that will not happen is plain to see.
    func commandAckLine(nowUs: Int64) -> String? {
        guard let l = link, let ack = l.value.commandAck else { return nil }
        let answer = ack.result.isRefusal ? Self.name(ack.result).uppercased() : Self.name(ack.result)
        let ageUs = Int64(ack.ageMs) * 1000 &+ max(0, nowUs &- l.receivedAtUs)
        return "  autopilot " + Self.name(ack.command) + " " + answer + " " + TextFormat.age(us: ageUs) + " ago"
    }

    /// The link in one word now, for one-line views (`status --line`, `status --all`): `dead` when the link process
    /// is gone or silent (its last retained report would say `ok` for ever), else its own report's word.
    public func linkWord(now: MonotonicInstant) -> String {
        guard let link else { return "-" }
        return linkDeath(now: now) == nil ? Self.linkWord(link.value) : "dead"
    }

    /// Why the vehicle link is dead, or nil while it is alive: its presence says offline, or its status (published
    /// at least every second while it runs) has not come for `linkSilentAfter`, timed on this machine's clock.
    public func linkDeath(now: MonotonicInstant) -> String? {
        let nowUs = now.us
        guard let link else { return nil }
        for name in Self.linkServices {
            if let entry = services[name], !entry.presence.online {
                let age = entry.changedAtUs.map { " " + TextFormat.age(us: max(0, nowUs &- $0)) } ?? ""
                return name + " offline" + age
            }
        }
        let silentUs = nowUs &- link.receivedAtUs
        guard silentUs > Self.linkSilentAfter.us else { return nil }
        return "no link status for " + TextFormat.age(us: silentUs)
    }

    /// The vehicle links' presence names (either may serve the drone).
    public static let linkServices = ["drone-link", "mavlink-link"]
    /// Both links publish their status at least once a second: two missed means the link is gone.
    public static let linkSilentAfter: Duration = .seconds(2)

    /// The word of one link report: `ok`, `down`, `navdata-lost`, …
    public static func linkWord(_ link: LinkStatus) -> String {
        guard link.connected else { return "down" }
        guard link.reason == .ok else { return String(link.reason.jsonName.map { $0 == "_" ? "-" : $0 }) }
        return link.fallbackHover ? "fallback-hover" : "ok"
    }

    func staleMark(_ receivedAtUs: Int64, _ nowUs: Int64) -> String {
        isStale(receivedAtUs, nowUs: nowUs) ? "  STALE" : ""
    }

    /// People's words from the one activity table; an emergency in capitals, like DISCONNECTED.
    static func name(_ a: ControllerState.Activity) -> String {
        a == .emergency ? "EMERGENCY" : a.name(separator: " ")
    }

    static func name(_ s: DroneState.ControlState) -> String {
        switch s {
        case .unknown: "unknown"
        case .initializing: "init"
        case .landed: "landed"
        case .flying: "flying"
        case .hovering: "hovering"
        case .test: "test"
        case .takingOff: "taking off"
        case .goingToFix: "going to fix"
        case .landing: "landing"
        case .looping: "looping"
        }
    }

    static func name(_ c: LinkStatus.AutopilotCommand) -> String {
        switch c {
        case .arm: "arm"
        case .disarm: "disarm"
        case .forceDisarm: "emergency disarm"
        case .takeoff: "takeoff"
        case .land: "land"
        case .setMode: "mode change"
        case .setMessageInterval: "stream request"
        }
    }

    static func name(_ r: LinkStatus.CommandResult) -> String {
        switch r {
        case .accepted: "accepted"
        case .temporarilyRejected: "temporarily rejected"
        case .denied: "denied"
        case .unsupported: "unsupported"
        case .failed: "failed"
        case .inProgress: "in progress"
        case .cancelled: "cancelled"
        case .noAnswer: "no answer"
        }
    }

    static func name(_ r: LinkStatus.Reason) -> String {
        switch r {
        case .ok: "ok"
        case .navdataLost: "NAVDATA LOST"
        case .commandTimeout: "command timeout"
        case .configuring: "configuring"
        }
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
