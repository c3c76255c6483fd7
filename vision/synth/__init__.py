"""Synthetic domino tables with exact labels (issue 3).

geometry (plane maths) -> styles, tiles (how a tile looks and is drawn) -> play, layouts (where
tiles lie, from engine-played deals) -> backgrounds, boards, clutter (the table and what is on it)
-> camera (view and light) -> scene (one still) -> dataset (a written set) and video (a filmed deal).
"""
