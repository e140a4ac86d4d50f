// Placeholder; replaced by the FlightLog implementation.
