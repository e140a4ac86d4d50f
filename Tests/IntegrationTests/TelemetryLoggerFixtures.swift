import QuadProtocol

/// Deterministic pseudo-random bytes (SplitMix64), so a failing run can be repeated.
struct Bytes {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func nextIndex(_ bound: Int) -> Int { Int(nextWord() % UInt64(bound)) }

    mutating func next(count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: nextWord()) } }
}

extension TelemetryLoggerTests {
    /// Message `index` of the recording test: binary DroneState and PositionFix, arbitrary bytes (some of them
    /// not decodable at all), empty payloads; two drones, several topics, QoS 0 and 1.
    static func message(_ index: Int, _ bytes: inout Bytes) -> (topic: String, payload: [UInt8], qos: Int32) {
        let fleet1 = DroneID(rawValue: "fleet1") ?? .default, fleet2 = DroneID(rawValue: "fleet2") ?? .default
        let sequence = UInt32(index)
        switch index % 5 {
        case 0:
            let state = DroneState(sequence: sequence, timestampUs: 1_700_000_000_000_000 + Int64(index),
                                   navdataSequence: sequence, stateBits: 0, controlState: .landed, batteryPercent: 80,
                                   altitudeM: 0, pitchDeg: 0, rollDeg: 0, yawDeg: 10, velocityXMps: 0,
                                   velocityYMps: 0, velocityZMps: 0)
            return (Topics.droneState.topic(for: fleet1), (try? state.encoded()) ?? [], 0)
        case 1:
            let fix = PositionFix(sequence: sequence, timestampUs: 1_700_000_000_000_000 + Int64(index),
                                  latitudeDeg: 52.52, longitudeDeg: 13.405, altitudeM: 40, satellites: 7,
                                  source: .droneGPS)
            return (Topics.position.topic(for: fleet1), (try? fix.encoded()) ?? [], 0)
        case 2:
            return (Topics.target.topic(for: fleet1), bytes.next(count: bytes.nextIndex(300)), 1)
        case 3:
            return (Topics.linkStatus.topic(for: fleet2), bytes.next(count: 1 + bytes.nextIndex(600)), 1)
        default:
            let payload = index % 10 == 4 ? [] : bytes.next(count: bytes.nextIndex(64))
            return (Topics.controlClaim.topic(for: fleet2), payload, 0)
        }
    }

    /// A short flight of drone `flight1`: landed, takeoff (rotates the log), a binary and a JSON target, twenty
    /// fixes flying north-east, arrival, landing.
    static func flight() -> [(topic: String, payload: [UInt8])] {
        let drone = DroneID(rawValue: "flight1") ?? .default
        let t0: Int64 = 1_700_000_000_000_000
        var sequence: UInt32 = 0
        func state(_ control: DroneState.ControlState, altitudeM: Float) -> (String, [UInt8]) {
            sequence += 1
            let message = DroneState(sequence: sequence, timestampUs: t0 + Int64(sequence) * 100_000,
                                     navdataSequence: sequence, stateBits: 0, controlState: control,
                                     batteryPercent: 90, altitudeM: altitudeM, pitchDeg: 0, rollDeg: 0, yawDeg: 45,
                                     velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)
            return (Topics.droneState.topic(for: drone), (try? message.encoded()) ?? [])
        }
        func controller(_ activity: ControllerState.Activity, _ reason: String) -> (String, [UInt8]) {
            sequence += 1
            let message = ControllerState(sequence: sequence, timestampUs: t0 + Int64(sequence) * 100_000,
                                          activity: activity, reason: Reason(code: reason), pilotId: "ground",
                                          targetLatitudeDeg: 52.5203, targetLongitudeDeg: 13.4053)
            return (Topics.controllerState.topic(for: drone), (try? message.encoded()) ?? [])
        }
        let target = Target(senderId: "ground", sequence: 1, timestampUs: t0, latitudeDeg: 52.5203,
                            longitudeDeg: 13.4053, altitudeM: 10, ttlS: 60)
        var messages = [controller(.landed, "waiting"), state(.landed, altitudeM: 0), state(.takingOff, altitudeM: 0.3),
                        (Topics.target.topic(for: drone), (try? target.encoded()) ?? []),
                        (Topics.target.topic(for: drone), Array(#"{"lat": 52.5201, "lon": 13.4058, "alt": 8}"#.utf8)),
                        controller(.flyingToTarget, "target received")]
        for step in 0..<20 {
            messages.append(state(.flying, altitudeM: 1 + Float(step) * 0.4))
            sequence += 1
            let fix = PositionFix(sequence: sequence, timestampUs: t0 + Int64(sequence) * 100_000,
                                  latitudeDeg: 52.52 + Double(step) * 1.5e-5,
                                  longitudeDeg: 13.405 + Double(step) * 1.5e-5,
                                  altitudeM: 40 + Float(step) * 0.4, headingDeg: 45, satellites: 8, source: .droneGPS)
            messages.append((Topics.position.topic(for: drone), (try? fix.encoded()) ?? []))
        }
        messages += [controller(.arrived, "within 3 m"), state(.landing, altitudeM: 0.5), state(.landed, altitudeM: 0)]
        return messages
    }
}
