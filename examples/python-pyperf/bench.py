"""pyperf benchmarks of wordfreq. pyperf runs each benchmark in worker
processes (-p), each giving --values timed values after --warmups; perf-gate
reads every value. WORDFREQ_SLOW=1 benchmarks the slower implementation under
the same name, to see the gate fail."""
import os
import sys

import pyperf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wordfreq  # noqa: E402

TEXT = " ".join(f"word{i % 50}" for i in range(2000))
count = wordfreq.count_words_by_scanning if os.environ.get("WORDFREQ_SLOW") == "1" else wordfreq.count_words

runner = pyperf.Runner()
runner.bench_func("count_words", count, TEXT)
runner.timeit("split", stmt="text.split()", setup=f"text = {TEXT!r}")
