"""The plots an experiment file declares: matplotlib, PNG and SVG.

One figure per plot; `facet` makes one panel per value of that column
(side by side, shared y), `hue` one line (or bar group) per value. Points
are sorted by x. SVGs are written without a date and with a fixed hash salt
so that the same table gives the same file. With statistics over seeds
(cli.write_outputs) the table is the summary: y is the mean and the error
bars are the 95 % confidence interval (`yerr`, a column of half-widths).
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _label(v):
    return str(v)


def draw(plot, df, out_dir, y=None, yerr=None):
    """Write <out_dir>/<plot.name>.png and .svg; return the two paths.
    `y` replaces plot.y as the column drawn (the label stays plot.y's),
    `yerr` names a column of error bar half-widths."""
    os.makedirs(out_dir, exist_ok=True)
    plt.rcParams["svg.hashsalt"] = "leon3vp"
    # empty cells (a diff metric's B rows, an optional metric) are not
    # points: left in, they would break the line between the real ones
    ycol = y or plot.y
    df = df[df[ycol].notna()]
    facets = [None] if plot.facet is None else list(dict.fromkeys(df[plot.facet]))
    fig, axes = plt.subplots(1, len(facets), figsize=(5.5 * len(facets), 4), squeeze=False, sharey=True)
    for ax, fv in zip(axes[0], facets):
        sub = df if fv is None else df[df[plot.facet] == fv]
        hues = [None] if plot.hue is None else list(dict.fromkeys(sub[plot.hue]))
        xs_all = list(dict.fromkeys(sub.sort_values(plot.x)[plot.x]))
        width = 0.8 / max(1, len(hues))
        for j, hv in enumerate(hues):
            s = sub if hv is None else sub[sub[plot.hue] == hv]
            s = s.sort_values(plot.x)
            label = None if hv is None else f"{plot.hue}={_label(hv)}"
            err = None if yerr is None else s[yerr].fillna(0).tolist()
            if plot.kind == "bar":
                pos = [xs_all.index(x) + (j - (len(hues) - 1) / 2) * width for x in s[plot.x]]
                ax.bar(pos, s[ycol], width=width, label=label, yerr=err, capsize=3 if err else 0)
                ax.set_xticks(range(len(xs_all)), [_label(x) for x in xs_all])
            elif err is not None:
                ax.errorbar(s[plot.x], s[ycol], yerr=err, marker="o", capsize=3, label=label)
            else:
                ax.plot(s[plot.x], s[ycol], marker="o", label=label)
        if plot.logx:
            ax.set_xscale("log")
        if plot.logy:
            ax.set_yscale("log")
        ax.set_xlabel(plot.xlabel or plot.x)
        if fv is not None:
            ax.set_title(f"{plot.facet}={_label(fv)}")
        ax.grid(True, alpha=0.3)
        if plot.hue is not None:
            ax.legend(fontsize="small")
    ylabel = plot.ylabel or plot.y
    axes[0][0].set_ylabel(ylabel + (" (mean, 95 % CI)" if yerr else ""))
    if plot.title:
        fig.suptitle(plot.title)
    fig.tight_layout()
    paths = [os.path.join(out_dir, f"{plot.name}.{ext}") for ext in ("png", "svg")]
    fig.savefig(paths[0], dpi=100, metadata={"Software": None})
    fig.savefig(paths[1], metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return paths
