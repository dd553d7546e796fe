"""Anchor for Benchmarks/face.sh: OpenCV's LBP frontal face cascade (Debian python3-opencv +
opencv-data), one thread, on every 640x480 gray frame read raw from stdin. Prints the median
detectMultiScale CPU time in ms, the frame count and the detections. Settings: scaleFactor 1.1,
minNeighbors 3, minSize 80x80 (dlib's smallest face, so both search the same sizes)."""
import statistics
import sys
import time

import cv2
import numpy as np

w, h, cascade_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
cv2.setNumThreads(1)
cascade = cv2.CascadeClassifier(cascade_path)
if cascade.empty():
    sys.exit(f"cannot load {cascade_path}")
times, faces = [], 0
stdin = sys.stdin.buffer
while True:
    buf = stdin.read(w * h)
    if len(buf) < w * h:
        break
    img = np.frombuffer(buf, dtype=np.uint8).reshape(h, w)
    t0 = time.thread_time()  # CPU time of this thread: other load does not count
    found = cascade.detectMultiScale(img, scaleFactor=1.1, minNeighbors=3, minSize=(80, 80))
    times.append((time.thread_time() - t0) * 1000)
    faces += len(found)
print(f"{statistics.median(times):.3f} {len(times)} {faces}")
