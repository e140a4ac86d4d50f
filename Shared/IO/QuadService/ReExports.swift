// Services read both clocks next to the rest of QuadService: re-exported so a file importing QuadService names
// `WallClock` and `MonotonicClock` without a second import; and `ServiceThread`, the one way a loop gets a thread.
@_exported import Clocks
@_exported import ServiceThreads
