"""Reading the table from one frame: tighten detector boxes, count pips, rebuild the layout.

Runtime path: numpy and OpenCV only (never torch).
"""
