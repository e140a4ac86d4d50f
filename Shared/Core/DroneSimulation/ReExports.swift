// UDPEndpoint lives in its own pure target so the socket code (DatagramIO) and the simulator share it.
@_exported import NetworkEndpoint
