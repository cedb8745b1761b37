"""Labelled photos: YOLO labels and paths, the team's dataset store, format conversion. No torch."""
