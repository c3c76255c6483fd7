"""The Flask pages: spectator, overlay, operator, streams and persistence glue."""
