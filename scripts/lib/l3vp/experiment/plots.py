"""The plots an experiment file declares: matplotlib, PNG and SVG.

One figure per plot; `facet` makes one panel per value of that column
(side by side, shared y), `hue` one line (or bar group) per value. Points
are sorted by x. SVGs are written without a date and with a fixed hash salt
so that the same table gives the same file.
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _label(v):
    return str(v)


def draw(plot, df, out_dir):
    """Write <out_dir>/<plot.name>.png and .svg; return the two paths."""
    os.makedirs(out_dir, exist_ok=True)
    plt.rcParams["svg.hashsalt"] = "leon3vp"
    # empty cells (a diff metric's B rows, an optional metric) are not
    # points: left in, they would break the line between the real ones
    df = df[df[plot.y].notna()]
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
            if plot.kind == "bar":
                pos = [xs_all.index(x) + (j - (len(hues) - 1) / 2) * width for x in s[plot.x]]
                ax.bar(pos, s[plot.y], width=width, label=label)
                ax.set_xticks(range(len(xs_all)), [_label(x) for x in xs_all])
            else:
                ax.plot(s[plot.x], s[plot.y], marker="o", label=label)
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
    axes[0][0].set_ylabel(plot.ylabel or plot.y)
    if plot.title:
        fig.suptitle(plot.title)
    fig.tight_layout()
    paths = [os.path.join(out_dir, f"{plot.name}.{ext}") for ext in ("png", "svg")]
    fig.savefig(paths[0], dpi=100, metadata={"Software": None})
    fig.savefig(paths[1], metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return paths
