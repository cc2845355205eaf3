# The asv adapter test's benchmark suite: every asv benchmark type, a
# parameterised class, one combination asv skips (NotImplementedError in
# setup, recorded as NaN) and one benchmark that fails (recorded as null).
# Small repeat counts keep `asv run` to a few seconds.
def time_sum_100():
    sum(range(100))
time_sum_100.repeat = 5
time_sum_100.number = 10
time_sum_100.rounds = 1
time_sum_100.warmup_time = 0

class TimeSuite:
    params = [10, 1000]
    param_names = ['n']
    repeat = 3
    number = 10
    rounds = 1
    warmup_time = 0
    def time_range(self, n):
        sum(range(n))

def mem_list():
    return [0] * 1000

def peakmem_list():
    [0] * 100000

def track_answer():
    return 42
track_answer.unit = "widgets"

def time_fails():
    raise ValueError("boom")

class TimeSkip:
    params = [1, 2]
    param_names = ['k']
    repeat = 3
    number = 5
    rounds = 1
    warmup_time = 0
    def setup(self, k):
        if k == 2:
            raise NotImplementedError()
    def time_k(self, k):
        pass
