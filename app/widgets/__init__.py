"""Widgets of the app drawn by our own code: tile faces, tappable tiles, the photo with tappable boxes."""
