import MAVLink

/// The autopilot parameters that make its fence act, by flavor (docs/airspace.md "The autopilot's fence").
/// PX4: GF_ACTION 2 (Hold: stop where the breach is seen; Return could fly home through a keep-out zone),
/// GF_PREDICT 1 (brake before the fence, not after it), GF_MAX_VER_DIST the ceiling. ArduCopter: FENCE_ENABLE 1,
/// FENCE_TYPE 5 (max altitude + polygons/circles; not the circle around home, the board keeps that one),
/// FENCE_ACTION 4 (Brake, else Land: stop at the fence, never a return across a zone), FENCE_ALT_MAX the ceiling,
/// FENCE_OPTIONS 2 (several inclusion zones mean their union, as on the board).
public enum FenceParameters {
    public struct Setting: Sendable, Equatable {
        var name: String
        var value: Double
        var isInteger: Bool
    }

    static func settings(for flavor: AutopilotFlavor, ceilingM: Double) -> [Setting] {
        switch flavor {
        case .px4:
            [.init(name: "GF_ACTION", value: 2, isInteger: true),
             .init(name: "GF_PREDICT", value: 1, isInteger: true),
             .init(name: "GF_MAX_VER_DIST", value: ceilingM, isInteger: false)]
        case .ardupilot:
            [.init(name: "FENCE_ENABLE", value: 1, isInteger: true),
             .init(name: "FENCE_TYPE", value: 5, isInteger: true),
             .init(name: "FENCE_ACTION", value: 4, isInteger: true),
             .init(name: "FENCE_ALT_MAX", value: ceilingM, isInteger: false),
             .init(name: "FENCE_OPTIONS", value: 2, isInteger: true)]
        }
    }

    /// PARAM_SET for `setting`: PX4 takes an integer's bytes in the float (its own type decides), ArduPilot the
    /// number itself.
    static func message(_ setting: Setting, flavor: AutopilotFlavor,
                        target: (system: UInt8, component: UInt8)) -> ParamSet {
        let bytewise = flavor == .px4 && setting.isInteger
        let value = bytewise ? Float(bitPattern: UInt32(bitPattern: Int32(setting.value))) : Float(setting.value)
        return ParamSet(paramId: setting.name, paramValue: value,
                        paramType: setting.isInteger ? ParamValue.typeInt32 : ParamValue.typeReal32,
                        targetSystem: target.system, targetComponent: target.component)
    }

    /// Whether the autopilot's answer says `setting` holds (a float parameter to 1 cm).
    static func confirms(_ value: ParamValue, _ setting: Setting, flavor: AutopilotFlavor) -> Bool {
        value.paramId == setting.name && abs(value.numericValue(bytewise: flavor == .px4) - setting.value) < 0.01
    }
}
