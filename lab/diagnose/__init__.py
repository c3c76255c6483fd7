"""One-off diagnoses of the detector and the reader on a rendered set: `python -m lab.diagnose.NAME ...`."""
