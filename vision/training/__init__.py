"""Training (the `train` extra): metrics, evaluation, detector and classifier training, fine-tuning, `synth/`."""
