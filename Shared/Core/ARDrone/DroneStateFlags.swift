/// The 32-bit drone state word of every navdata packet (SDK 2.0 `def_ardrone_state_mask_t`).
///
/// objc.io used the older SDK 1.x labels for bits 6–9 and 12–18; these are the 2.0 meanings.
public struct DroneStateFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Bit 0: the drone is flying.
    public static let flying = DroneStateFlags(rawValue: 1 << 0)
    public static let videoEnabled = DroneStateFlags(rawValue: 1 << 1)
    public static let visionEnabled = DroneStateFlags(rawValue: 1 << 2)
    /// Bit 3: control algorithm; 0 = Euler angles, 1 = angular speed.
    public static let angularSpeedControl = DroneStateFlags(rawValue: 1 << 3)
    public static let altitudeControlActive = DroneStateFlags(rawValue: 1 << 4)
    /// Bit 5: user feedback, start button state.
    public static let startButtonPressed = DroneStateFlags(rawValue: 1 << 5)
    /// Bit 6: the drone has taken an AT*CONFIG; clear with `AT*CTRL=n,5,0` before the next one.
    public static let controlCommandAck = DroneStateFlags(rawValue: 1 << 6)
    public static let cameraReady = DroneStateFlags(rawValue: 1 << 7)
    public static let travellingEnabled = DroneStateFlags(rawValue: 1 << 8)
    public static let usbReady = DroneStateFlags(rawValue: 1 << 9)
    /// Bit 10: only demo navdata is sent.
    public static let navdataDemo = DroneStateFlags(rawValue: 1 << 10)
    /// Bit 11: bootstrap mode, no options sent until `general:navdata_demo` is configured.
    public static let navdataBootstrap = DroneStateFlags(rawValue: 1 << 11)
    public static let motorsProblem = DroneStateFlags(rawValue: 1 << 12)
    /// Bit 13: the drone considers the client gone.
    public static let comLost = DroneStateFlags(rawValue: 1 << 13)
    /// Bit 14: software fault, land as soon as possible.
    public static let softwareFault = DroneStateFlags(rawValue: 1 << 14)
    public static let lowBattery = DroneStateFlags(rawValue: 1 << 15)
    public static let userEmergencyLanding = DroneStateFlags(rawValue: 1 << 16)
    public static let timerElapsed = DroneStateFlags(rawValue: 1 << 17)
    public static let magnetoNeedsCalibration = DroneStateFlags(rawValue: 1 << 18)
    public static let anglesOutOfRange = DroneStateFlags(rawValue: 1 << 19)
    public static let tooMuchWind = DroneStateFlags(rawValue: 1 << 20)
    public static let ultrasoundDeaf = DroneStateFlags(rawValue: 1 << 21)
    public static let cutoutDetected = DroneStateFlags(rawValue: 1 << 22)
    public static let picVersionOK = DroneStateFlags(rawValue: 1 << 23)
    public static let atCodecThreadOn = DroneStateFlags(rawValue: 1 << 24)
    public static let navdataThreadOn = DroneStateFlags(rawValue: 1 << 25)
    public static let videoThreadOn = DroneStateFlags(rawValue: 1 << 26)
    public static let acquisitionThreadOn = DroneStateFlags(rawValue: 1 << 27)
    /// Bit 28: the control loop ran late (> 5 ms).
    public static let controlWatchdogLate = DroneStateFlags(rawValue: 1 << 28)
    /// Bit 29: uart2 ran late (> 5 ms).
    public static let adcWatchdogLate = DroneStateFlags(rawValue: 1 << 29)
    /// Bit 30: no AT traffic for more than 50 ms; send `AT*COMWDG`.
    public static let comWatchdog = DroneStateFlags(rawValue: 1 << 30)
    /// Bit 31: emergency (motors cut); toggle back with REF bit 8.
    public static let emergency = DroneStateFlags(rawValue: 1 << 31)
}
