"""The live pipeline: a camera (or the demo) -> motion gate -> reader -> tracker -> events."""
