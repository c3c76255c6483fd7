"""Reading the table from one frame: read the tiles in the detector boxes, count pips, rebuild the layout.

Runtime path: numpy and OpenCV only (never torch).
"""
