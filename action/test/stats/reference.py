"""Reference values for the statistics tests, computed with scipy/numpy.

Reads a JSON list of cases on stdin and writes a JSON list of results on stdout.
Each case is {"kind": ..., ...}; see the handlers below. Called from
python-reference.ts; scipy is installed by `npm run setup` (scripts/install/20-python.sh).
"""
import json
import math
import sys

import numpy as np
from scipy import stats


def u_counts(m, n):
    """Exact counts of U for sizes m, n (Python integers: no rounding)."""
    # f[i][j] = list of counts, recurrence on the largest pooled element.
    prev = [[1] for _ in range(n + 1)]
    for i in range(1, m + 1):
        cur = [[1]]
        for j in range(1, n + 1):
            up, left = prev[j], cur[j - 1]
            out = [0] * (i * j + 1)
            for u, c in enumerate(up):
                out[u + j] += c
            for u, c in enumerate(left):
                out[u] += c
            cur.append(out)
        prev = cur
    return prev[n]


def signed_rank_counts(n):
    total = n * (n + 1) // 2
    counts = [0] * (total + 1)
    counts[0] = 1
    for r in range(1, n + 1):
        nxt = counts[:]
        for t in range(total - r, -1, -1):
            if counts[t]:
                nxt[t + r] += counts[t]
        counts = nxt
    return counts


def lower_k(counts, alpha):
    """Smallest q with P(stat <= q) >= alpha/2, from exact integer counts; at least 1."""
    total = sum(counts)
    acc = 0
    for q, c in enumerate(counts):
        acc += c
        if acc * 2 >= alpha * total:  # acc/total >= alpha/2
            return max(1, q)
    return len(counts) - 1


def hl_two_sample(case):
    x, y = case["x"], case["y"]
    m, n = len(x), len(y)
    diffs = sorted(yj - xi for xi in x for yj in y)
    alpha = 1 - case["confidence"]
    if m <= 50 and n <= 50:
        k = lower_k(u_counts(m, n), alpha)
    else:
        sigma = math.sqrt(m * n * (m + n + 1) / 12)
        k = max(1, math.floor(m * n / 2 - stats.norm.ppf(1 - alpha / 2) * sigma))
    return {"estimate": float(np.median(diffs)), "lower": diffs[k - 1], "upper": diffs[m * n - k], "k": k}


def hl_one_sample(case):
    d = sorted(case["d"])
    n = len(d)
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    total = len(walsh)
    alpha = 1 - case["confidence"]
    if n <= 50:
        k = lower_k(signed_rank_counts(n), alpha)
    else:
        sigma = math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
        k = max(1, math.floor(total / 2 - stats.norm.ppf(1 - alpha / 2) * sigma))
    return {"estimate": float(np.median(walsh)), "lower": walsh[k - 1], "upper": walsh[total - k], "k": k}


def handle(case):
    kind = case["kind"]
    if kind == "mannwhitneyu":
        r = stats.mannwhitneyu(case["x"], case["y"], alternative=case["alternative"],
                               method=case["method"], use_continuity=True)
        return {"u": float(r.statistic), "p": float(r.pvalue)}
    if kind == "welch":
        r = stats.ttest_ind(case["x"], case["y"], equal_var=False)
        ci = r.confidence_interval(case["confidence"])
        return {"t": float(r.statistic), "df": float(r.df), "p": float(r.pvalue),
                "lower": float(ci.low), "upper": float(ci.high)}
    if kind == "wilcoxon":
        r = stats.wilcoxon(case["d"], zero_method="wilcox", correction=case["correction"],
                           alternative=case["alternative"], method=case["method"])
        return {"p": float(r.pvalue)}
    if kind == "bh":
        return {"adjusted": [float(v) for v in stats.false_discovery_control(case["p"], method="bh")]}
    if kind == "hl2":
        return hl_two_sample(case)
    if kind == "hl1":
        return hl_one_sample(case)
    if kind == "fsf":
        return {"p": float(stats.f.sf(case["ratio"], case["dfn"], case["dfd"]))}
    if kind == "tail":
        rate = (case["kb"] + 0.5) / (case["nb"] + 1)
        return {"p": float(stats.binom.sf(case["kc"] - 1, case["nc"], rate))}
    if kind == "upper-tail":
        b, c = np.array(case["baseline"]), np.array(case["current"])
        factor = case["factor"]
        kb = int(np.sum(b - np.median(b) > math.log(math.sqrt(factor))))
        kc = int(np.sum(c - np.median(c) > math.log(factor)))
        p = float(stats.binom.sf(kc - 1, len(c), (kb + 0.5) / (len(b) + 1))) if kc > 0 else 1.0
        return {"kb": kb, "kc": kc, "p": p, "excess": kc / len(c) - kb / len(b)}
    if kind == "describe":
        a = np.array(case["x"])
        return {"mean": float(np.mean(a)), "median": float(np.median(a)),
                "stddev": float(np.std(a, ddof=1)), "q": float(np.quantile(a, case["q"]))}
    if kind == "bootstrap":
        def ratio(c, b, axis=-1):
            return np.median(c, axis=axis) / np.median(b, axis=axis)
        r = stats.bootstrap((np.array(case["current"]), np.array(case["baseline"])), ratio,
                            method="percentile", n_resamples=case["resamples"],
                            confidence_level=case["confidence"], vectorized=True,
                            rng=np.random.default_rng(case["seed"]))
        return {"lower": float(r.confidence_interval.low), "upper": float(r.confidence_interval.high)}
    if kind == "run-drift":
        # Levels: median of each run's logs; their variance (pi/2) s^2 / n with s the
        # normal-consistent MAD of the logs (scipy); drift from consecutive differences.
        levels, variances = [], []
        for run in case["runs"]:
            logs = np.log(np.array(run))
            levels.append(float(np.median(logs)))
            s = stats.median_abs_deviation(logs, scale="normal")
            variances.append(math.pi / 2 * s * s / len(logs))
        d = np.abs(np.diff(np.array(levels)))
        total = float(np.median(d)) / stats.norm.ppf(0.75) / math.sqrt(2)
        return {"sigmaTotal": total, "sigma": math.sqrt(max(0.0, total * total - float(np.mean(variances))))}
    if kind == "levels":
        # The optimal two-group split of the logs (best_split), and the gap of the
        # groups' median logs over the larger normal-consistent MAD (scipy).
        logs = np.sort(np.log(np.array(case["values"])))
        best = best_split(logs)
        if best is None:
            return None
        a, b = logs[:best], logs[best:]
        spread = max(float(stats.median_abs_deviation(a, scale="normal")), float(stats.median_abs_deviation(b, scale="normal")))
        d = (float(np.median(b)) - float(np.median(a))) / spread if spread > 0 else None
        return {"fast": int(best), "separation": d}
    if kind == "unshared":
        return unshared_levels(case["baseline"], case["current"])
    if kind == "fold":
        return fold_rounds(case["ratios"])
    raise ValueError("unknown kind " + kind)


def best_split(logs):
    """Where the ascending logs split into two groups with the smallest
    within-group sum of squares, by brute force (every split, numpy's var),
    sought among the core: within a factor two of the median. None when no
    split is possible."""
    core = [i for i in range(len(logs)) if abs(logs[i] - np.median(logs)) <= math.log(2)]
    lo, hi = core[0], core[-1] + 1
    best, cost = None, math.inf
    for k in range(lo + 1, hi):
        if logs[k] == logs[k - 1]:
            continue
        c = np.var(logs[lo:k]) * (k - lo) + np.var(logs[k:hi]) * (hi - k)
        if c < cost - 1e-12:
            best, cost = k, c
    return best


def two_levels(values):
    """stats/levels.ts twoLevels, written again from its description: the best
    split of the core logs, accepted at twelve values or more, each group four
    and a tenth of them, the slow median at most twice the fast one, and the
    medians five normal-consistent MADs (the larger group's) apart. Returns the
    two groups' values in ascending order, or None."""
    if len(values) < 12:
        return None
    xs = np.sort(np.array(values, dtype=float))
    best = best_split(np.log(xs))
    if best is None:
        return None
    fast, slow = xs[:best], xs[best:]
    least = max(4, math.ceil(0.1 * len(xs)))
    if len(fast) < least or len(slow) < least or np.median(slow) > 2 * np.median(fast):
        return None
    spread = max(stats.median_abs_deviation(np.log(fast), scale="normal"), stats.median_abs_deviation(np.log(slow), scale="normal"))
    gap = float(np.median(np.log(slow)) - np.median(np.log(fast)))
    if (gap / spread if spread > 0 else math.inf) < 5:
        return None
    return [fast, slow]


def unshared_levels(baseline, current):
    """stats/levels.ts unsharedLevels: with both sides in two levels, a side's
    level (its values within a factor two of the side's median) holding no
    value of the other side, five robust deviations from the other side's
    nearest level."""
    sides = {"baseline": np.array(baseline, dtype=float), "current": np.array(current, dtype=float)}
    levels = {name: two_levels(values) for name, values in sides.items()}
    if levels["baseline"] is None or levels["current"] is None:
        return []
    found = []
    for own, other in (("baseline", "current"), ("current", "baseline")):
        med = np.median(np.log(sides[own]))
        for rank, level in zip(("fast", "slow"), levels[own]):
            core = level[np.abs(np.log(level) - med) <= math.log(2)]
            if len(core) == 0:
                continue
            drawn = np.any((sides[other] >= core.min()) & (sides[other] <= core.max()))
            nearest = min(levels[other], key=lambda l: abs(math.log(np.median(l) / np.median(level))))
            spread = max(stats.median_abs_deviation(np.log(level), scale="normal"), stats.median_abs_deviation(np.log(nearest), scale="normal"))
            gap = abs(math.log(np.median(level) / np.median(nearest)))
            separation = gap / spread if spread > 0 else (math.inf if gap > 0 else 0)
            if not drawn and separation >= 5:
                found.append({"side": own, "rank": rank, "level": float(np.median(level)), "nearest": float(np.median(nearest))})
    return found


def fold_rounds(ratios):
    """Interleaved rounds' log ratios folded by the gap between two levels
    (stats/folded-rounds.ts), written again from its description: for each gap
    on the grid, three groups one gap apart fitted by medians from the copy of
    the median nearest zero and one gap either side, among the fits that move
    enough rounds and leave two, the least sum of absolute distances (the
    centre nearer zero on a tie), then the checks (the sizes two levels could
    give, as many rounds unmoved as moved ones need, the rounds left
    unexplained, the separation, the empty ground)."""
    d = np.array(ratios, dtype=float)
    n = len(d)
    if n < 12:
        return None
    least = max(4, math.ceil(0.1 * n))

    def half_out(x):
        return np.sign(x) * np.floor(np.abs(x) + 0.5)

    median = float(np.median(d))
    best = None
    gap = math.log(1.04)
    while gap <= math.log(2):
        nearest = median - gap * float(half_out(median / gap))
        for start in (nearest - gap, nearest, nearest + gap):
            centre = start
            for _ in range(4):
                folds = np.clip(half_out((d - centre) / gap), -1, 1)
                centre = float(np.median(d - folds * gap))
            moved = int(np.sum(folds != 0))
            if moved < least or n - moved < 2:
                continue
            cost = sum(abs(float(x)) for x in (d - centre - folds * gap))
            if best is not None:
                tie = 1e-9 * max(cost, best[0])
                if not (cost < best[0] - tie or (cost <= best[0] + tie and abs(centre) < abs(best[2]))):
                    continue
            best = (cost, gap, centre, folds.copy())
        gap += 0.002
    if best is None:
        return None
    _, gap, centre, folds = best
    share = {k: float(np.mean(folds == k)) for k in (-1, 0, 1)}
    if share[0] + 1.5 / math.sqrt(n) < 2 * math.sqrt(share[1] * share[-1]):
        return None
    if int(np.sum(folds == 0)) < least:
        return None
    unexplained = int(np.sum(np.abs(d - folds * gap - centre) > gap / 2))
    if unexplained > max(1, n // 10):
        return None
    folded = d - folds * gap
    spread = float(stats.median_abs_deviation(folded, scale="normal"))
    out = np.abs(d[folds != 0] - centre)
    separation = float(np.median(out)) / spread if spread > 0 else math.inf
    if not separation >= 5:
        return None
    groups = [d[folds == k] for k in (-1, 0, 1) if np.any(folds == k)]
    for a, b in zip(groups, groups[1:]):
        if not np.min(b) - np.max(a) >= 3 * spread:
            return None
    return {"gap": gap, "folds": [int(k) for k in folds], "separation": separation if math.isfinite(separation) else None}


def main():
    cases = json.load(sys.stdin)
    json.dump([handle(c) for c in cases], sys.stdout)


if __name__ == "__main__":
    main()
