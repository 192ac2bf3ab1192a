"""Media -> model-ready inputs (PDF pages, video frames, audio, CLIP captions), content-addressed.

Knows nothing about tasks or agents. Heavy libraries are imported inside functions.
"""
