"""An event of many tables over MQTT (issue 27).

A table's `dominocam serve --event mqtt://HOST[:PORT]/EVENT --table N` publishes its journal
(`publisher.py`); `dominocam hub` subscribes, keeps every table's entries in its own SQLite
(`hubstore.py`), runs the event's tournament from the deals the tables finish (`feed.py`, with
engine/tournament) and serves the multi-board, standings, call list and event operator pages
(`app.py`). Not to be confused with webui/hub.py, one table's journal hub.
"""
