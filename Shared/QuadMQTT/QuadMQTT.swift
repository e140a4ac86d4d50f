// Placeholder; replaced by the QuadMQTT implementation.
