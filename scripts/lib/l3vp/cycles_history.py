"""A history of cycle counts over commits: `scripts/cycles-history`
(docs/cycles.md "History over commits").

    df = cycles_history.read(path)                        # None if no file yet
    df = cycles_history.add(df, cycles_history.commit_info(repo, "HEAD"),
                            {"net_ping": cycles.load("stats.json", names)})
    cycles_history.write(df, path)
    cycles_history.plot(df, "history.png")

The history is a CSV file (pandas) with one row per commit: `commit` (the
full hash), `date` (the committer date, UTC, ISO 8601), `subject`, then one
column per program, region and metric: `net_ping/net_rx/cycles`,
`net_ping/(run)/energy_fj`. Regions keep the instructions, cycles and CPU
energy (with --energy) of their figures; the whole run `(run)` also its
board energy. Rows are in commit-date order (the order of `git log
--reverse` for a linear history). Adding a commit again replaces what that
commit had for the programs added (other programs' columns are kept).
"""
import os
import subprocess

import pandas as pd

from . import cycles

KEYS = ("commit", "date", "subject")
REGION_METRICS = ("cycles", "instructions", "cpu_energy_fj")
RUN_METRICS = ("cycles", "instructions", "energy_fj", "cpu_energy_fj")
ENERGY = "cpu_energy_fj"


def commit_info(repo, rev="HEAD"):
    """(full hash, UTC ISO date, subject) of a commit; ValueError with one line."""
    try:
        p = subprocess.run(["git", "-C", repo, "show", "-s", "--format=%H%n%ct%n%s", rev, "--"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise ValueError(f"cannot run git: {e}") from None
    out = p.stdout.splitlines()
    if p.returncode != 0 or len(out) < 2:
        err = (p.stderr.strip().splitlines() or ["no such commit"])[0]
        raise ValueError(f"{rev!r} in {repo}: {err}")
    date = pd.Timestamp(int(out[1]), unit="s", tz="UTC").strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"commit": out[0], "date": date, "subject": out[2] if len(out) > 2 else ""}


def flatten(program, figs):
    """{"program/region/metric": value} of one figure set (cycles.load)."""
    out = {}
    for m in RUN_METRICS:
        if m in figs["run"]:
            out[f"{program}/(run)/{m}"] = figs["run"][m]
    for rid, rec in sorted(figs["regions"].items()):
        name = cycles.label(rid, rec.get("name"))
        for m in REGION_METRICS:
            if m in rec:
                out[f"{program}/{name}/{m}"] = rec[m]
    return out


def _program(col):
    return col.split("/", 1)[0]


def read(path):
    """The history of a CSV file, or None when the file does not exist yet.
    ValueError naming the file when it is not a history."""
    if not os.path.exists(path):
        return None
    try:
        df = pd.read_csv(path, dtype={k: str for k in KEYS}, keep_default_na=False, na_values=[""])
    except (ValueError, pd.errors.ParserError) as e:
        raise ValueError(f"{path}: not a CSV file ({str(e).splitlines()[0]})") from None
    missing = [k for k in KEYS if k not in df.columns]
    if missing:
        raise ValueError(f"{path}: not a cycles history (no column {missing[0]!r})")
    df["subject"] = df["subject"].fillna("")
    return df


def add(df, info, programs):
    """The history with one commit's figures (info: commit_info; programs:
    {name: figures}). The commit's row is replaced, keeping the columns of
    programs not given."""
    row = dict(info)
    for name, figs in programs.items():
        row.update(flatten(name, figs))
    if df is not None and (df["commit"] == info["commit"]).any():
        old = df[df["commit"] == info["commit"]].iloc[0]
        keep = {c: v for c, v in old.items()
                if c not in KEYS and _program(c) not in programs and pd.notna(v)}
        row = {**keep, **row}
        df = df[df["commit"] != info["commit"]]
    new = pd.DataFrame([row])
    df = new if df is None or df.empty else pd.concat([df, new], ignore_index=True)
    df = df.sort_values("date", kind="stable").reset_index(drop=True)
    cols = list(KEYS) + sorted((c for c in df.columns if c not in KEYS), key=lambda c: c.split("/"))
    return df[cols]


def write(df, path):
    """Write the history (ValueError with one line when it cannot be written)."""
    try:
        df.to_csv(path, index=False)
    except OSError as e:
        raise ValueError(f"cannot write {path}: {e.strerror or e}") from None


def series(df, metric, program=None, regions=None):
    """{label: column} of one metric: the regions (and the whole run) of a
    program, or of every program when there is one ("net_rx"), else
    labelled "program/region"."""
    cols = [c for c in df.columns if c not in KEYS and c.rsplit("/", 1)[1] == metric]
    progs = sorted({_program(c) for c in cols})
    if program is not None:
        if program not in progs:
            raise ValueError(f"--program: no {metric} of {program!r} in the history "
                             f"(programs: {', '.join(progs) or 'none'})")
        cols = [c for c in cols if _program(c) == program]
    out = {}
    for c in cols:
        prog, rest = c.split("/", 1)
        region = rest.rsplit("/", 1)[0]
        if regions and region not in regions:
            continue
        out[region if program or len(progs) == 1 else f"{prog}/{region}"] = c
    return out


def plot(df, out_png, program=None, regions=None, relative=False):
    """One PNG, the benchmark-dashboard style: x = the commits in order,
    one line per region; a panel for cycles and, when the history has it,
    one for the CPU energy. relative: percent against each line's first
    value instead of a log scale of the counts. Returns the panels' metrics."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [m for m in ("cycles", ENERGY) if series(df, m, program, regions)]
    if not panels:
        raise ValueError("nothing to plot: no cycles in the history" + (f" for {program!r}" if program else ""))
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 3.6 * len(panels)), sharex=True, squeeze=False)
    x = list(range(len(df)))
    for ax, metric in zip(axes[:, 0], panels):
        for lbl, col in sorted(series(df, metric, program, regions).items()):
            y = pd.to_numeric(df[col], errors="coerce")
            if relative:
                first = y.dropna()
                y = 100.0 * (y / first.iloc[0] - 1.0) if len(first) and first.iloc[0] else y * float("nan")
            ax.plot(x, y, marker="o", markersize=4, label=lbl)
        what = "CPU energy (fJ)" if metric == ENERGY else "cycles"
        ax.set_ylabel(f"{what}, % vs first commit" if relative else what)
        if not relative:
            ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    ax = axes[-1, 0]
    ax.set_xticks(x)
    ax.set_xticklabels([f"{c[:7]}\n{d[:10]}" for c, d in zip(df["commit"], df["date"])], fontsize=7)
    ax.set_xlabel("commit (oldest left)")
    title = f"{program}: " if program else ""
    axes[0, 0].set_title(f"{title}cycles" + (" and energy" if ENERGY in panels else "") + " per region over commits")
    fig.tight_layout()
    try:
        fig.savefig(out_png, dpi=100, metadata={"Software": None})
    except OSError as e:
        raise ValueError(f"cannot write {out_png}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
    return panels
