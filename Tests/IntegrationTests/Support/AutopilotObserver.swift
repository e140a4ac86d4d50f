import Foundation
import Navigation
import ProcessSupport

/// The oracle of the real-autopilot scenarios: `MAVLink/autopilot_observer.py` (pymavlink, not our codec) on the
/// autopilot's second MAVLink link, reporting the autopilot's own position, armed state, mode, landed state and
/// STATUSTEXT as JSON lines, read here as they come. Its times are this machine's monotonic clock
/// (`AutopilotObserver.nowS()`). It can also send a NAV_LAND of its own (`land()`): a second ground station; read
/// the autopilot's fence and mission (`readFence()`, `readMission()`), switch it to its mission mode
/// (`missionMode()`), and records MISSION_CURRENT and MISSION_ITEM_REACHED (`missionCurrent`, `missionReached`).
final class AutopilotObserver: @unchecked Sendable {
    /// GLOBAL_POSITION_INT: the autopilot's own estimate.
    struct Position: Sendable {
        var timeS: Double
        var point: GeoPoint
        /// Above home (relative_alt).
        var relativeAltitudeM: Double
        /// The autopilot's own horizontal ground speed (vx, vy), m/s.
        var groundSpeedMps: Double = 0
        /// Above mean sea level (alt).
        var altitudeAMSLM: Double = 0
        /// The autopilot's heading (hdg), degrees; NaN when it says unknown.
        var headingDeg: Double = .nan
        func distanceM(to other: GeoPoint) -> Double { Geodesy.inverse(from: point, to: other).distanceM }
        /// Where it is on a leg from `origin` on `bearingDeg`: metres along it, and across it (positive: right).
        func legOffsetM(from origin: GeoPoint, bearingDeg: Double) -> (alongM: Double, acrossM: Double) {
            let way = Geodesy.inverse(from: origin, to: point)
            let offRad = (way.initialBearingDeg - bearingDeg) * .pi / 180
            return (way.distanceM * cos(offRad), way.distanceM * sin(offRad))
        }
    }

    /// MAV_LANDED_STATE as EXTENDED_SYS_STATE reports it.
    enum LandedState: Int, Sendable {
        case undefined = 0, onGround, inAir, takeoff, landing
    }

    /// One item of the autopilot's mission as MISSION_ITEM_INT carries it (x, y: latitude, longitude × 1e7 in the
    /// global frames; z: altitude in the item's frame).
    struct MissionItem: Sendable, Equatable {
        var seq: Int
        var command: Int
        var frame: Int
        var x: Int
        var y: Int
        var z: Double
        var param1, param2, param3, param4: Double
    }

    /// Everything observed so far.
    struct Observations: Sendable {
        var hello = false
        var positions: [Position] = []
        /// HEARTBEAT changes: (time, armed, custom_mode).
        var heartbeats: [(timeS: Double, armed: Bool, customMode: UInt32)] = []
        var landedStates: [(timeS: Double, state: LandedState)] = []
        var texts: [(timeS: Double, text: String)] = []
        var home: GeoPoint?
        /// EKF_STATUS_REPORT flags (ArduPilot).
        var ekfFlags: Int?
        /// The SYS_STATUS pre-arm health bit (PX4).
        var prearmOK: Bool?
        /// The autopilot's fence as last read (`readFence()`): (command, param1, lat × 1e7, lon × 1e7) per item.
        var fence: [(command: Int, param1: Double, latitudeE7: Int, longitudeE7: Int)]?
        /// Why the last fence read failed.
        var fenceError: String?
        /// COMMAND_ACKs for what the observer sent: (command, MAV_RESULT).
        var acks: [(command: Int, result: Int)] = []
        /// The autopilot's mission (type 0) as last read (`readMission()`; ArduPilot's item 0 is its home).
        var mission: [MissionItem]?
        /// Why the last mission read failed.
        var missionError: String?
        /// MISSION_CURRENT's seq, on every change.
        var missionCurrent: [(timeS: Double, seq: Int)] = []
        /// MISSION_ITEM_REACHED, every one.
        var missionReached: [(timeS: Double, seq: Int)] = []

        var latest: Position? { positions.last }
        var armed: Bool? { heartbeats.last?.armed }
        var customMode: UInt32? { heartbeats.last?.customMode }
        var landedState: LandedState? { landedStates.last?.state }
        /// Disarmed and on the ground, as the autopilot says (its altitude estimate wanders ±0.5 m on the ground).
        var isDisarmedOnGround: Bool { armed == false && landedState == .onGround }
        func positions(from startS: Double, to endS: Double = .infinity) -> [Position] {
            positions.filter { $0.timeS >= startS && $0.timeS <= endS }
        }
        func armedAt(since startS: Double) -> Double? {
            heartbeats.first { $0.timeS >= startS && $0.armed }?.timeS
        }
        /// One line per change of armed state, mode, landed state, mission item and every STATUSTEXT since `startS`, in
        /// time order.
        func story(since startS: Double = 0, relativeTo zeroS: Double? = nil) -> String {
            let zero = zeroS ?? startS
            var lines: [(Double, String)] = heartbeats.filter { $0.timeS >= startS }
                .map { ($0.timeS, "\($0.armed ? "armed" : "disarmed") mode \($0.customMode)") }
            lines += landedStates.filter { $0.timeS >= startS }.map { ($0.timeS, "landed state \($0.state)") }
            lines += texts.filter { $0.timeS >= startS }.map { ($0.timeS, "\"\($0.text)\"") }
            lines += missionCurrent.filter { $0.timeS >= startS }.map { ($0.timeS, "mission item \($0.seq) current") }
            lines += missionReached.filter { $0.timeS >= startS }.map { ($0.timeS, "mission item \($0.seq) reached") }
            return lines.sorted { $0.0 < $1.0 }.map { String(format: "%+7.2f s  ", $0.0 - zero) + $0.1 }
                .joined(separator: "\n")
        }
    }

    let process: ChildProcess
    private let outputURL: URL
    /// Orders for the helper (`--commands`), one JSON line each.
    private let commandsURL: URL
    private let lock = NSLock()
    private var seen = Observations()
    private var offset: UInt64 = 0
    private var pending = Data()

    /// - Parameters:
    ///   - listenPort: where the autopilot's link sends (0: any free port, then `autopilot` must be given).
    ///   - autopilot: where to say hello first (PX4's GCS link, which then answers whoever sent to it).
    init(listenPort: UInt16, autopilot: String?, directory: URL) throws {
        outputURL = directory.appendingPathComponent("observer.jsonl")
        commandsURL = directory.appendingPathComponent("observer-commands.jsonl")
        FileManager.default.createFile(atPath: commandsURL.path, contents: Data())
        process = try ChildProcess(
            executable: PythonTools.requirePython(),
            arguments: [PythonTools.scripts.appendingPathComponent("autopilot_observer.py").path,
                        "--commands", commandsURL.path, "\(listenPort)"]
                + (autopilot.map { [$0] } ?? []),
            name: "autopilot-observer", logPath: directory.appendingPathComponent("observer.log").path,
            stdoutPath: outputURL.path)
    }

    /// This machine's monotonic clock, the helper's `t` (Python's time.monotonic).
    static func nowS() -> Double { FaultFlight.monotonicS() }

    /// What was observed up to now (reads what the helper wrote since the last call).
    var now: Observations {
        lock.withLock {
            readNewLines()
            return seen
        }
    }

    /// Waits until `condition` holds on the observations; the failure names `what` and the autopilot's story.
    func wait(_ what: String, timeoutS: Double, context: @autoclosure () -> String = "",
              _ condition: @escaping (Observations) -> Bool) async throws {
        do {
            try await eventually(timeout: .seconds(timeoutS), what) { condition(now) }
        } catch {
            let seen = now
            let position = seen.latest.map { String(format: "%.7f,%.7f alt %.2f m", $0.point.latitudeDeg,
                                                    $0.point.longitudeDeg, $0.relativeAltitudeM) } ?? "none"
            let armed = seen.armed.map { $0 ? "armed" : "disarmed" } ?? "armed state unknown"
            throw TestEnvironmentError.timeout("""
                \(what) (after \(timeoutS) s; the autopilot last at \(position), \(armed), landed state \
                \(seen.landedState.map { "\($0)" } ?? "unknown"))
                --- the autopilot's last minute
                \(seen.story(since: Self.nowS() - 60, relativeTo: Self.nowS()))
                \(context())
                """)
        }
    }

    /// Sends MAV_CMD_NAV_LAND from the observer (resent every second until acknowledged).
    func land() { kill(process.pid, SIGUSR1) }

    /// Reads the autopilot's fence (mission type 1) anew: `now.fence` (or `fenceError`) when it is in.
    func readFence() {
        lock.withLock {
            seen.fence = nil
            seen.fenceError = nil
        }
        order(#"{"cmd": "fence"}"#)
    }

    /// Reads the autopilot's mission (mission type 0) anew: `now.mission` (or `missionError`) when it is in.
    func readMission() {
        lock.withLock {
            seen.mission = nil
            seen.missionError = nil
        }
        order(#"{"cmd": "mission"}"#)
    }

    /// MAV_CMD_DO_SET_MODE to the autopilot's mission mode (PX4 AUTO/MISSION, ArduCopter AUTO), as a ground
    /// station's mode switch, resent until acknowledged: the ack is in `now.acks` (command 176).
    func missionMode() { order(#"{"cmd": "mission_mode"}"#) }

    /// MAV_CMD_DO_REPOSITION straight to the autopilot (a second ground station, bypassing the stack), at
    /// `speedMps` (nil: the autopilot's default cruise).
    func goto(_ point: GeoPoint, altitudeAMSLM: Double, speedMps: Double? = nil) {
        order(#"{"cmd": "goto", "lat": \#(point.latitudeDeg), "lon": \#(point.longitudeDeg), "#
              + #""alt": \#(altitudeAMSLM), "speed": \#(speedMps ?? -1)}"#)
    }

    private func order(_ line: String) {
        guard let handle = try? FileHandle(forWritingTo: commandsURL) else { return }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data((line + "\n").utf8))
    }

    func stop() { process.stop() }

    deinit { stop() }

    private func readNewLines() {
        guard let handle = try? FileHandle(forReadingFrom: outputURL) else { return }
        defer { try? handle.close() }
        try? handle.seek(toOffset: offset)
        guard let data = try? handle.readToEnd(), !data.isEmpty else { return }
        offset += UInt64(data.count)
        pending.append(data)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending[pending.startIndex..<newline]
            pending.removeSubrange(pending.startIndex...newline)
            if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { record(object) }
        }
    }

    private func record(_ o: [String: Any]) {
        let t = o["t"] as? Double ?? 0
        func point() -> GeoPoint? {
            guard let lat = o["lat"] as? Double, let lon = o["lon"] as? Double else { return nil }
            return GeoPoint(latitudeDeg: lat, longitudeDeg: lon)
        }
        switch o["kind"] as? String {
        case "hello": seen.hello = true
        case "position":
            if let p = point() {
                let north = o["vn"] as? Double ?? 0, east = o["ve"] as? Double ?? 0
                seen.positions.append(Position(timeS: t, point: p, relativeAltitudeM: o["rel_alt"] as? Double ?? 0,
                                               groundSpeedMps: (north * north + east * east).squareRoot(),
                                               altitudeAMSLM: o["alt"] as? Double ?? 0,
                                               headingDeg: (o["hdg"] as? NSNumber)?.doubleValue ?? .nan))
            }
        case "heartbeat":
            seen.heartbeats.append((t, o["armed"] as? Bool ?? false, UInt32(o["custom_mode"] as? Int ?? 0)))
        case "landed":
            seen.landedStates.append((t, LandedState(rawValue: o["state"] as? Int ?? 0) ?? .undefined))
        case "statustext": seen.texts.append((t, o["text"] as? String ?? ""))
        case "home": seen.home = point()
        case "ekf": seen.ekfFlags = o["flags"] as? Int
        case "prearm": seen.prearmOK = o["ok"] as? Bool
        case "fence":
            if let items = o["items"] as? [[Double]] {
                seen.fence = items.filter { $0.count == 4 }.map { (Int($0[0]), $0[1], Int($0[2]), Int($0[3])) }
            } else {
                seen.fenceError = o["error"] as? String ?? "?"
            }
        case "mission":
            if let items = o["items"] as? [[String: Any]] {
                seen.mission = items.map { i in
                    func number(_ key: String) -> Double { (i[key] as? NSNumber)?.doubleValue ?? .nan }
                    return MissionItem(seq: i["seq"] as? Int ?? -1, command: i["command"] as? Int ?? -1,
                                       frame: i["frame"] as? Int ?? -1, x: i["x"] as? Int ?? 0, y: i["y"] as? Int ?? 0,
                                       z: number("z"), param1: number("param1"), param2: number("param2"),
                                       param3: number("param3"), param4: number("param4"))
                }
            } else {
                seen.missionError = o["error"] as? String ?? "?"
            }
        case "mission_current": seen.missionCurrent.append((t, o["seq"] as? Int ?? -1))
        case "mission_reached": seen.missionReached.append((t, o["seq"] as? Int ?? -1))
        case "ack":
            seen.acks.append((o["command"] as? Int ?? -1, o["result"] as? Int ?? -1))
            seen.texts.append((t, "(the observer's command \(o["command"] ?? "?") → result \(o["result"] ?? "?"))"))
        default: break
        }
    }
}
