"""Apache Otava's change points for each series read from stdin.

Input: a JSON list of series (lists of numbers). Output: a JSON list with, per
series, the indexes of Otava's change points (compute_change_points, the
default E-Divisive means with a t-test: window 50, p <= 0.001, no minimum
magnitude, unless given as arguments: window max_pvalue).
"""
import json
import sys

from otava.analysis import compute_change_points

window = int(sys.argv[1]) if len(sys.argv) > 1 else 50
max_pvalue = float(sys.argv[2]) if len(sys.argv) > 2 else 0.001
out = []
for series in json.load(sys.stdin):
    points, _ = compute_change_points(series, window_len=window, max_pvalue=max_pvalue, min_magnitude=0.0)
    out.append([int(p.index) for p in points])
json.dump(out, sys.stdout)
