// Placeholder; replaced by the ARDrone implementation.
