import Clocks
import QuadProtocol

extension StatusBoard {
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
            let state = c.value
            let activity = state.activity.label
            var line = "  activity  " + TextFormat.pad(activity, max(17, activity.count + 1))
            if state.reason != .unspecified { line += "(" + TextFormat.clean(state.reason.code, width: 32) + ")  " }
            lines.append(line + ageMark(c.receivedAtUs, nowUs, staleAfter: controllerStaleAfter(state)))
            lines.append("  pilot     " + (state.pilotId.isEmpty ? "none" : TextFormat.clean(state.pilotId, width: 64)))
        } else {
            lines.append("  activity  - (no controller state)")
        }
        if let d = droneState {
            let s = d.value
            let battery = TextFormat.padLeft("\(s.batteryPercent)", 3) + " %"
            let altitude = TextFormat.fixed(Double(s.altitudeM), digits: 1) + " m"
            lines.append("  battery   " + TextFormat.pad(battery, 8) + "altitude " + TextFormat.pad(altitude, 10)
                + "state " + TextFormat.pad(Self.name(s.controlState), 12) + ageMark(d.receivedAtUs, nowUs))
        } else {
            lines.append("  battery   - (no drone telemetry)")
        }
        lines.append(targetLine(nowUs: nowUs))
        let distanceM = controller?.value.distanceToTargetM.map(Double.init)
        if let route, let line = Self.routeText(route, distanceM: distanceM) { lines.append("  route     " + line) }
        return lines
    }

    /// `around 'shed': leg 2 of 5, 31 m left` while a target's route is flown (the distance: the controller's,
    /// the way left along the route), `home around 'shed': leg 2 of 5, 44 m from home` on a return (the
    /// controller's distance is the straight one home then); nil for no route.
    public static func routeText(_ plan: AirspaceRoutePlan, distanceM: Double?) -> String? {
        guard !plan.isNone else { return nil }
        let zone = plan.zoneName.isEmpty ? "a zone" : "'" + TextFormat.clean(plan.zoneName, width: 64) + "'"
        var text = (plan.purpose == .returnHome ? "home around " : "around ") + zone
            + ": leg \(plan.leg) of \(plan.legCount)"
        if let distanceM, distanceM.isFinite {
            text += ", \(Int(distanceM.rounded())) m " + (plan.purpose == .returnHome ? "from home" : "left")
        }
        return text
    }

    /// The goal (`goal`) with its distance and the age of what the distance came from.
    func targetLine(nowUs: Int64) -> String {
        switch goal {
        case .none:
            return "  target    none"
        case .home(let distanceM, let note, let receivedAtUs):
            // While it returns the controller measures from its position fix; none means it has no fresh one.
            let returning = controller?.value.activity == .returningHome
            let distance = distanceM.map { Self.metres($0) } ?? (returning ? "- (no position)" : "-")
            return "  home      distance " + distance + "  (" + note + ")  "
                + ageMark(receivedAtUs, nowUs, staleAfter: controller.map { controllerStaleAfter($0.value) })
        case .target(let lat, let lon, let distanceM, let bearingDeg, let receivedAtUs, let fromNavigator):
            var line = "  target    " + TextFormat.coordinate(latitudeDeg: lat, longitudeDeg: lon)
                + "  distance " + Self.metres(distanceM)
            if let bearingDeg { line += "  bearing " + TextFormat.bearing(bearingDeg) + " deg" }
            let after = fromNavigator ? nil : controller.map { controllerStaleAfter($0.value) }
            return line + "  " + ageMark(receivedAtUs, nowUs, staleAfter: after)
        }
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
            + "\(s.lastNavdataAgeMs) ms  " + s.reason.label
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

    func staleMark(_ receivedAtUs: Int64, _ nowUs: Int64, staleAfter: Duration? = nil) -> String {
        isStale(receivedAtUs, nowUs: nowUs, after: staleAfter) ? "  STALE" : ""
    }

    /// `age 2s`, and `  STALE` past `staleAfter` (the board's telemetry threshold by default): every field of
    /// the FLIGHT section says how old it is, timed from its receipt here.
    func ageMark(_ receivedAtUs: Int64, _ nowUs: Int64, staleAfter: Duration? = nil) -> String {
        "age " + TextFormat.age(us: nowUs &- receivedAtUs) + staleMark(receivedAtUs, nowUs, staleAfter: staleAfter)
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
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
