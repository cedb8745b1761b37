"""Run time: photo → detections → layout. onnxruntime + OpenCV + NumPy only (never torch or ultralytics)."""
