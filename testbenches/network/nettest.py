"""What the network checks share: failed checks collected, topologies
copied with their ELF paths pointing into the firmware directory."""
import json
import os
import subprocess
import sys

ERRORS = []


def check(cond, msg):
    if not cond:
        ERRORS.append(msg)
        print("FAIL: " + msg)


def localise(src, fw_dir, work):
    """A copy of topology file `src` in `work` whose boards' ELFs are in `fw_dir`; its path."""
    with open(src) as f:
        t = json.load(f)
    for b in t["boards"]:
        b["elf"] = os.path.join(os.path.abspath(fw_dir), b["elf"])
    path = os.path.join(work, os.path.basename(src))
    with open(path, "w") as f:
        json.dump(t, f)
    return path


def finish(what):
    """The exit status: 1 with a count of the failed checks, else 0."""
    if ERRORS:
        print("%d check(s) failed" % len(ERRORS))
        return 1
    print(what + ": all checks passed")
    return 0


def run_topology(vp, path, work, tag, extra=()):
    """leon3vp on topology file `path` with --stats WORK/TAG.json: (statistics,
    stdout); a failed run is a failed check and ends the script."""
    stats = os.path.join(work, tag + ".json")
    p = subprocess.run([vp, "--scenario", path, "--stats", stats, "-q"] + list(extra), capture_output=True,
                       text=True, timeout=600)
    check(p.returncode == 0, "%s: exit %d: %s" % (tag, p.returncode, p.stderr.strip()[-400:]))
    if p.returncode != 0:
        sys.exit(finish("stopped at " + tag))
    with open(stats) as f:
        return json.load(f), p.stdout
