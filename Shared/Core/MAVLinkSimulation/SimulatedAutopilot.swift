/// Which autopilot drone-sim's MAVLink face imitates (`--autopilot`): PX4 (the default) or ArduPilot Copter.
public enum SimulatedAutopilot: String, Sendable, CaseIterable {
    case px4, ardupilot
}
