"""The firmware's JSON result lines and leon3vp's --stats JSON.

Result lines are the lines of the UART output that start with '{', one
JSON object each, {"app": ..., "type": ..., ...} for the network programs
(firmware/net/port/netapp.h), {"type": ...} for others.
"""
import json


def json_lines(text, strict=True):
    """Every UART line starting with '{', parsed. strict: a line that is not
    valid JSON raises ValueError naming it; otherwise it is skipped."""
    out = []
    for line in text.splitlines():
        if not line.startswith("{"):
            continue
        try:
            out.append(json.loads(line))
        except ValueError:
            if strict:
                raise ValueError(f"malformed result line on the UART: {line[:80]}") from None
    return out


def lines_by_type(lines):
    """{type: [lines of that type, in order]}."""
    out = {}
    for line in lines:
        out.setdefault(line.get("type"), []).append(line)
    return out


def first_line(lines, typ):
    """The first line of type `typ`, or None."""
    for line in lines:
        if line.get("type") == typ:
            return line
    return None


def load_stats(path):
    """leon3vp --stats JSON file -> dict (OSError/ValueError on failure)."""
    with open(path) as f:
        return json.load(f)


def stats_get(stats, path):
    """stats["a"]["b"]["c"] for path "a.b.c", or None where a key is missing."""
    for k in path.split("."):
        if not isinstance(stats, dict) or k not in stats:
            return None
        stats = stats[k]
    return stats


def stats_differences(x, y, path=""):
    """Every difference of two --stats dicts (or sub-trees), as readable
    lines: a key present in only one, or a value that differs (by path)."""
    out = []
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if k not in x or k not in y:
                out.append("key %s/%s present in only one run" % (path, k))
            else:
                out += stats_differences(x[k], y[k], path + "/" + k)
    elif x != y:
        out.append("%s = %r, then %r" % (path, x, y))
    return out


def regions(stats):
    """{region id: region record} of a --stats dict (docs/timing.md "Regions")."""
    return {r["id"]: r for r in stats.get("regions", [])}


def flat(d, prefix=""):
    """A nested dict (e.g. --stats JSON) as {"a.b.c": value}; lists stay values."""
    out = {}
    for k, v in d.items():
        key = prefix + k
        if isinstance(v, dict):
            out.update(flat(v, key + "."))
        else:
            out[key] = v
    return out
