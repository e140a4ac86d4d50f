/// A command that runs as a service (a `ServiceRuntime` until SIGTERM): `launch()` leaves EarlyStop's SIGTERM/SIGINT
/// handler in place until the service's group replaces it, so a stop during start-up exits 0, never 143.
public protocol ServiceCommand {}
