"""Training, exporting and quantizing the tile detector (vision/detect/); torch and ultralytics live here."""
