"""Measuring and training the pip reader (vision/read/)."""
