extension SimulatorSession {
    /// Navdata drone-state bits (SDK 2.0 `def_ardrone_state_mask_t`) the simulator sets.
    public enum StateBit {
        public static let flying: UInt32 = 1 << 0
        public static let altitudeControl: UInt32 = 1 << 4
        public static let commandAck: UInt32 = 1 << 6
        public static let navdataDemo: UInt32 = 1 << 10
        public static let bootstrap: UInt32 = 1 << 11
        public static let comLost: UInt32 = 1 << 13
        public static let lowBattery: UInt32 = 1 << 15
        /// PIC version OK and the ATCodec, navdata, video and acquisition threads on (bits 23–27).
        public static let firmwareHealthy: UInt32 = 0x0F80_0000
        public static let comWatchdog: UInt32 = 1 << 30
        public static let emergency: UInt32 = 1 << 31
    }

    /// The 32-bit state word of a navdata header at `nowUs`.
    public func stateWord(nowUs: Int64) -> UInt32 {
        var word = StateBit.firmwareHealthy
        if drone.areMotorsOn { word |= StateBit.flying | StateBit.altitudeControl }
        if isCommandAckSet { word |= StateBit.commandAck }
        if isNavdataDemo { word |= StateBit.navdataDemo }
        if isBootstrap { word |= StateBit.bootstrap }
        if isLinkLost { word |= StateBit.comLost }
        if drone.isLowBattery { word |= StateBit.lowBattery }
        if lastATUs.map({ nowUs - $0 > configuration.comWatchdogUs }) ?? true { word |= StateBit.comWatchdog }
        if drone.isEmergency { word |= StateBit.emergency }
        return word
    }
}
