// Placeholder; replaced by the DroneSimulation implementation.
