// Placeholder; replaced by the FlightControl implementation.
