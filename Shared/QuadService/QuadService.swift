// Placeholder; replaced by the QuadService implementation.
