// Placeholder; replaced by the Navigation implementation.
