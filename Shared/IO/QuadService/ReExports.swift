// Services read both clocks next to the rest of QuadService: re-exported so a file importing QuadService names
// `WallClock` and `MonotonicClock` without a second import.
@_exported import Clocks
