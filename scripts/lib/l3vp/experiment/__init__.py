"""l3vp.experiment: declarative sweeps of leon3vp runs (scripts/experiment,
docs/experiments.md).

  spec      the experiment file (YAML): strict validation, the grid of runs
  firmware  compile-time variants built on demand (CMake + Ninja; ours or an
            out-of-tree project), prebuilt ELF checks, ELF hash
  execute   one run of leon3vp (what a pool or Dask worker calls)
  metrics   named dotted paths into --stats, net results, UART lines; diffs
            of two runs; the --stats schema check
  stats     statistics across seeds: mean, std, Student-t 95 % interval
  plots     matplotlib figures (PNG + SVG)
  cli       the command line: run / list, cache, local pool or Dask, the table

load_table(DIR) reads a finished sweep's table into pandas (docs/python.md).
"""
import os


def load_table(out_dir, summary=False):
    """The table of `scripts/experiment run ... --out DIR` as a pandas
    DataFrame: results.csv (one row per run), or with summary=True
    summary.csv (one row per cell, experiments with `statistics`). An
    empty `error` cell is "" (a successful run), empty metric cells are
    NaN. FileNotFoundError names the file when the run has not written it."""
    import pandas as pd

    path = os.path.join(out_dir, "summary.csv" if summary else "results.csv")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path}: no such file (not an output directory of `experiment run`"
                                + (", or an experiment without statistics:)" if summary else ")"))
    from .spec import TEXT_COLUMNS

    df = pd.read_csv(path, dtype={c: str for c in TEXT_COLUMNS})
    if "error" in df:
        df["error"] = df["error"].fillna("").astype(str)
    return df
