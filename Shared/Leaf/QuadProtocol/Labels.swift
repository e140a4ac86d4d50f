/// What people read for a controller's activity and a link's health: `location-broadcaster status` prints these, and
/// the map page shows the same words from web/map/vocabulary.js, which is generated from them (with `Reason.table`)
/// and checked by Tests/QuadProtocolTests/MapVocabularyTests.swift. Change a label here, then rewrite that file.
extension ControllerState.Activity {
    public var label: String {
        switch self {
        // Shouted: nothing flies any more.
        case .emergency: "EMERGENCY"
        // Whether the drone flies is not known yet: plainly not "landed".
        case .unknown: "unknown (no navdata yet)"
        default: name(separator: " ")
        }
    }
}

extension LinkStatus.Reason {
    public var label: String {
        switch self {
        case .ok: "ok"
        case .navdataLost: "NAVDATA LOST"
        case .commandTimeout: "command timeout"
        case .configuring: "configuring"
        }
    }
}
