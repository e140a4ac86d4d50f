// Placeholder; replaced by the GroundStation implementation.
