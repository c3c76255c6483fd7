"""Frames to facts: rendering, detection, pip reading, layout from an image, the live pipeline."""
