import Checksums
import Testing
@testable import QuadProtocol

/// The airspace payloads (issue 38): round trip, the checksum's definition, and what a decoder refuses.
@Suite struct AirspacePayloadTests {
    @Test func definitionRoundTripsWithHolesAndWithoutFloor() throws {
        var definition = SampleMessages.airspaceDefinition
        definition.floorM = nil
        definition.zones.append(.init(name: "yard", kind: .inclusion, shape: .polygon(rings: [
            [.init(latitudeDeg: -33.9, longitudeDeg: 151.2), .init(latitudeDeg: -33.9, longitudeDeg: 151.3),
             .init(latitudeDeg: -33.8, longitudeDeg: 151.3)],
            [.init(latitudeDeg: -33.89, longitudeDeg: 151.25), .init(latitudeDeg: -33.89, longitudeDeg: 151.26),
             .init(latitudeDeg: -33.88, longitudeDeg: 151.26)],
        ])))
        #expect(try AirspaceDefinition(decoding: definition.encoded()) == definition)
    }

    @Test func checksumIsCRC32OfTheBodyAfterTheSenderAndIgnoresSenderSequenceAndStamp() throws {
        #expect(CRC32.ieee.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        let definition = SampleMessages.airspaceDefinition
        let bytes = try definition.encoded()
        let afterSender = Array(bytes.dropFirst(WireHeader.byteCount + 1 + definition.senderId.utf8.count))
        #expect(definition.checksum == CRC32.ieee.checksum(afterSender))
        #expect(definition.checksum == 0x03A9_A06E)
        var other = definition
        (other.senderId, other.sequence, other.timestampUs) = ("someone-else", 99, 5)
        #expect(other.checksum == definition.checksum)
        other.marginM = 6
        #expect(other.checksum != definition.checksum)
    }

    @Test func statusRoundTripsInEveryCombination() throws {
        let refusal = AirspaceStatus.UploadRefusal(checksum: 7, reason: "zone 'lake' outer boundary intersects itself")
        for accepted in [nil, AirspaceStatus.Accepted(checksum: 1, zoneCount: 0)] {
            for upload in [nil, refusal] {
                let status = AirspaceStatus(sequence: 1, timestampUs: 2, accepted: accepted, uploadRefusal: upload)
                #expect(try AirspaceStatus(decoding: status.encoded()) == status)
            }
        }
    }

    @Test func aBadPayloadIsATypedErrorNeverACrash() throws {
        let bytes = try SampleMessages.airspaceDefinition.encoded()
        for count in 0..<bytes.count {
            #expect(throws: WireError.self) { try AirspaceDefinition(decoding: Array(bytes.prefix(count))) }
        }
        // Zone kind 3 (at 17 + 14 senderId + 1 presence + 24 + 2 count).
        var badKind = bytes
        badKind[17 + 14 + 27] = 3
        #expect(throws: WireError.unknownEnumValue(field: "zone kind", expected: [1, 2], got: 3)) {
            try AirspaceDefinition(decoding: badKind)
        }
        var nanMargin = SampleMessages.airspaceDefinition
        nanMargin.marginM = .nan
        #expect(throws: WireError.self) { try nanMargin.encoded() }
        var badLatitude = SampleMessages.airspaceDefinition
        badLatitude.zones[0].shape = .circle(centre: .init(latitudeDeg: 91, longitudeDeg: 0), radiusM: 1)
        #expect(throws: WireError.self) { try badLatitude.encoded() }
    }
}
