import ARDrone

/// INTERIM codec seam: a minimal AT parser and navdata writer so the session can be built and tested before
/// the ARDrone module's parser and navdata encoder land; replaced by calls into ARDrone then.
public enum ATDecodeFailure: Error, Equatable, Sendable {
    case datagramTooLong(byteCount: Int, limit: Int)
    case malformedCommand(String)
}

extension SimulatorSession {
    static func decodeATDatagram(_ bytes: [UInt8]) -> [Result<(UInt32, ATCommand), ATDecodeFailure>] {
        guard bytes.count <= 1024 else { return [.failure(.datagramTooLong(byteCount: bytes.count, limit: 1024))] }
        return bytes.split(whereSeparator: { $0 == 0x0D || $0 == 0x0A }).map { line in
            let text = String(decoding: line, as: UTF8.self)
            guard let command = decodeCommand(text) else { return .failure(.malformedCommand(String(text.prefix(40)))) }
            return .success(command)
        }
    }

    static func decodeCommand(_ text: String) -> (UInt32, ATCommand)? {
        guard text.hasPrefix("AT*"), let equals = text.firstIndex(of: "=") else { return nil }
        let name = String(text[text.index(text.startIndex, offsetBy: 3)..<equals])
        var arguments: [String] = []
        var current = ""
        var quoted = false
        for character in text[text.index(after: equals)...] {
            if character == "\"" { quoted.toggle() } else if character == ",", !quoted {
                arguments.append(current)
                current = ""
            } else { current.append(character) }
        }
        arguments.append(current)
        guard let sequence = UInt32(arguments[0]) else { return nil }
        let rest = Array(arguments.dropFirst())
        let ints = rest.map { Int32($0) }
        func int(_ i: Int) -> Int32? { i < ints.count ? ints[i] : nil }
        func float(_ i: Int) -> Float? { int(i).map(ATFloat.decode) }
        switch name {
        case "REF": return int(0).map { (sequence, .ref($0)) }
        case "PCMD", "PCMD_MAG":
            guard let flag = int(0), let roll = float(1), let pitch = float(2), let gaz = float(3), let yaw = float(4)
            else { return nil }
            return (sequence, .pcmd(flag: flag, roll: roll, pitch: pitch, gaz: gaz, yaw: yaw))
        case "FTRIM": return (sequence, .ftrim)
        case "COMWDG": return (sequence, .comwdg)
        case "CTRL": return int(0).map { (sequence, .ctrl(mode: $0)) }
        case "CONFIG": return rest.count == 2 ? (sequence, .config(key: rest[0], value: rest[1])) : nil
        default: return (sequence, .other(name: name, arguments: []))
        }
    }

    /// One navdata datagram for the current state.
    func navdataPacket(nowUs: Int64) -> [UInt8] {
        var bytes: [UInt8] = []
        func u32(_ v: UInt32) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
        func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func f32(_ v: Float) { u32(v.bitPattern) }
        u32(0x5566_7788)
        u32(stateWord(nowUs: nowUs))
        u32(navdataSequence)
        u32(0)
        if !isBootstrap, navdataOptionsMask & 1 != 0 || !isNavdataDemo {
            let demo = drone.demoReadings
            u16(0)
            u16(148)
            u32(demo.controlState)
            u32(demo.batteryPct)
            f32(demo.pitchMdeg)
            f32(demo.rollMdeg)
            f32(demo.yawMdeg)
            u32(UInt32(bitPattern: demo.altitudeMm))
            f32(demo.vxMmps)
            f32(demo.vyMmps)
            f32(demo.vzMmps)
            bytes += [UInt8](repeating: 0, count: 148 - 40)
        }
        let checksum = bytes.reduce(UInt32(0)) { $0 &+ UInt32($1) }
        u16(0xFFFF)
        u16(8)
        u32(checksum)
        return bytes
    }
}
