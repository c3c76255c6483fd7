"""Measuring the live pipeline (vision/live/) on rendered whole-deal videos."""
