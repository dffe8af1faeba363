"""Statistics across seeds (docs/experiments.md, "Lossy runs: seeds and
statistics").

A stochastic impairment (loss, corruption, jitter of the link) makes one
run one sample. With `statistics: {over: seed}` the runs that differ only
in the seed axis are repetitions of one cell; summarise() gives, per cell
of the other axes, the number of successful runs `n` and per metric the
mean, the sample standard deviation (n - 1) and the half-width of the 95 %
confidence interval of the mean, t(0.975, n - 1) * std / sqrt(n), with
Student's t quantile computed here (no SciPy needed).
"""
import math


def _t_cdf_central(t, df):
    """P(|T| < t) for Student's t with an integer df >= 1: the closed
    forms of Abramowitz & Stegun 26.7.3 (odd df) and 26.7.4 (even df)."""
    theta = math.atan(t / math.sqrt(df))
    c2, s = math.cos(theta) ** 2, math.sin(theta)
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for k in range(2, df, 2):          # 1 + 1/2 c^2 + 1*3/(2*4) c^4 + ...
            term *= c2 * (k - 1) / k
            total += term
        return s * total
    if df == 1:
        return 2 * theta / math.pi
    term, total = 1.0, 1.0
    for k in range(3, df, 2):              # 1 + 2/3 c^2 + 2*4/(3*5) c^4 + ...
        term *= c2 * (k - 1) / k
        total += term
    return 2 / math.pi * (theta + s * math.cos(theta) * total)


def t_quantile(p, df):
    """The p quantile (0.5 < p < 1) of Student's t with integer df >= 1,
    by bisection on the closed-form distribution (to 1e-12)."""
    if not (0.5 < p < 1) or int(df) != df or df < 1:
        raise ValueError(f"t_quantile({p}, {df}): needs 0.5 < p < 1 and an integer df >= 1")
    want = 2 * p - 1
    lo, hi = 0.0, 1.0
    while _t_cdf_central(hi, int(df)) < want:
        hi *= 2
    while hi - lo > 1e-12 * max(1.0, hi):
        mid = (lo + hi) / 2
        if _t_cdf_central(mid, int(df)) < want:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def describe(values):
    """(n, mean, std, ci95) of a list of numbers; std and ci95 are None
    for fewer than two values, everything None for none."""
    xs = [float(v) for v in values]
    n = len(xs)
    if n == 0:
        return 0, None, None, None
    mean = math.fsum(xs) / n
    if n < 2:
        return n, mean, None, None
    std = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    return n, mean, std, t_quantile(0.975, n - 1) * std / math.sqrt(n)


def _numeric(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def summarise(df, over, axes, metrics):
    """The summary table (pandas) of a results table `df`: one row per
    cell of `axes` without `over`, in grid order; `n` counts the cell's
    successful runs (empty `error`), METRIC_mean/_std/_ci95 are over the
    metric's numeric values in them (an empty cell of an optional or diff
    metric is not a sample)."""
    import pandas as pd

    keys = [a for a in axes if a != over]
    rows = []
    if len(df):
        ok = df[df["error"].fillna("") == ""] if "error" in df else df
        cells = list(dict.fromkeys(tuple(r) for r in df[keys].itertuples(index=False))) if keys else [()]
        for cell in cells:
            sel = ok
            for k, v in zip(keys, cell):
                sel = sel[sel[k] == v]
            row = dict(zip(keys, cell))
            row["n"] = len(sel)
            for m in metrics:
                vals = [v for v in (sel[m] if m in sel else []) if _numeric(v)]
                _, mean, std, ci = describe(vals)
                row.update({f"{m}_mean": mean, f"{m}_std": std, f"{m}_ci95": ci})
            rows.append(row)
    cols = keys + ["n"] + [f"{m}_{s}" for m in metrics for s in ("mean", "std", "ci95")]
    return pd.DataFrame(rows, columns=cols)
