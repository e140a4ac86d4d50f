import QuadService
import TelemetryLoggerKit

// Everything telemetry-logger does lives in Shared/Kits/TelemetryLoggerKit (tested by Tests/TelemetryLoggerKitTests
// without a broker, and by the integration suites as a process); this file only starts it.
await TelemetryLoggerCommand.launch()
