import MAVLink
@testable import MAVLinkCompanion
import Testing

/// What a dead board means, said once at connect from the autopilot's own parameters.
@Suite("mavlink-link reads the failsafe parameters")
struct FailsafeParametersTests {
    static func value(_ name: String, _ value: Float) -> ParamValue {
        ParamValue(paramId: name, paramValue: value, paramType: 9, paramCount: 1, paramIndex: 0)
    }

    static func sentence(_ flavor: AutopilotFlavor, _ answers: [ParamValue]) -> (String, Bool)? {
        var parameters = FailsafeParameters()
        parameters.start(flavor: flavor)
        #expect(!parameters.due(nowUs: 0).isEmpty)
        answers.forEach { parameters.receive($0) }
        var nowUs: Int64 = 0
        while nowUs < 10_000_000 {
            if let (level, text) = parameters.report(nowUs: nowUs, companionSystemId: 245) {
                return (text, level == .warning)
            }
            nowUs += 500_000
            _ = parameters.due(nowUs: nowUs)
        }
        return nil
    }

    /// ArduCopter 4.6 answers SYSID_MYGCS, 4.7 MAV_GCS_SYSID (the SITL beside the project): either is enough, at
    /// once (no waiting out the retries for the other name).
    @Test func arduCopterGCSSystemIdUnderEitherName() throws {
        for name in FailsafeParameters.gcsSystemIdNames {
            var parameters = FailsafeParameters()
            parameters.start(flavor: .ardupilot)
            _ = parameters.due(nowUs: 0)
            for answer in [Self.value("GUID_TIMEOUT", 3), Self.value("FS_GCS_ENABLE", 5), Self.value(name, 245)] {
                parameters.receive(answer)
            }
            #expect(parameters.missing.isEmpty, "\(name)")
            let report = parameters.report(nowUs: 1, companionSystemId: 245)
            let (level, text) = try #require(report)
            #expect(level == .warning && text.contains("watches this link (\(name)=245)") && text.contains("lands"),
                    "\(text)")
        }
    }

    @Test func px4OffboardLossActionIsSaidAndLandingInPlaceWarned() throws {
        let (landText, landWarns) = try #require(Self.sentence(.px4, [Self.value("COM_OF_LOSS_T", 1),
                                                                       Self.value("COM_OBL_RC_ACT", 0)]))
        #expect(landWarns && landText.contains("Position mode") && landText.contains("COM_OBL_RC_ACT=5"))
        let (holdText, holdWarns) = try #require(Self.sentence(.px4, [Self.value("COM_OF_LOSS_T", 1),
                                                                       Self.value("COM_OBL_RC_ACT", 5)]))
        #expect(!holdWarns && holdText.contains("Hold mode"))
        let (silentText, silentWarns) = try #require(Self.sentence(.px4, []))
        #expect(silentWarns && silentText.contains("unknown"))
    }
}
