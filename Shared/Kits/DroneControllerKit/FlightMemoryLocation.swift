import QuadProtocol

/// Where the controller keeps its flight memory. On by default, because a restart promise that needs a flag is
/// one users do not get: the first of `--state-dir`, `QUAD_STATE_DIR`, systemd's `STATE_DIRECTORY` (the unit's
/// `StateDirectory=`), else a directory of the user's own, one per drone id, under the XDG state directory
/// (`$XDG_STATE_HOME`, else `~/.local/state`): `quadcopter/drone-controller/<drone id>`. `--no-flight-memory` turns
/// it off. Pure: the environment comes in as a function.
enum FlightMemoryLocation: Equatable {
    /// Kept in this directory; `named`: given by a flag or the environment (used as it is), else the default
    /// (created with its parents).
    case directory(String, named: Bool)
    /// Not kept: the reason, for the start-up log line.
    case off(String)

    static func resolve(stateDir: String?, disabled: Bool, drone: DroneID,
                        environment: (String) -> String?) -> FlightMemoryLocation {
        if disabled { return .off("--no-flight-memory") }
        if let named = stateDir ?? environment("QUAD_STATE_DIR") ?? environment("STATE_DIRECTORY") {
            // systemd gives several directories colon-separated when a unit names several; the first is ours.
            let first = named.split(separator: ":", omittingEmptySubsequences: true).first.map(String.init)
            return first.map { .directory($0, named: true) } ?? .off("an empty state directory")
        }
        let base: String
        if let xdg = environment("XDG_STATE_HOME"), xdg.hasPrefix("/") {
            base = xdg
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            base = (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/state"
        } else {
            return .off("no --state-dir, and neither XDG_STATE_HOME nor HOME is set")
        }
        return .directory("\(base)/quadcopter/drone-controller/\(drone.rawValue)", named: false)
    }
}
