#!/usr/bin/python3
"""Several boards give the same counts whatever the quantum, DMI or the
order in which they are built (docs/network.md "Topologies").

  check_determinism.py LEON3VP FW_DIR WORK_DIR

For 2, 4 and 8 boards on one switch, sending UDP in pairs for 100 ms
(scripts/lib/l3vp/network.py switched()), three runs: as written; with the
boards and links listed in reverse order (other SystemC construction and
process order); with --quantum 1us --no-dmi. Every board's instruction,
cycle, idle-cycle, timing, GRETH, link and energy statistics and the
switch's counters must be identical, and the receivers must have received
datagrams (the traffic is real).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from nettest import check, finish, run_topology  # noqa: E402
from l3vp import network  # noqa: E402

KEYS = ["instructions", "cycles", "idle_cycles", "timing", "energy", "net"]


def run(vp, topo, work, tag, extra=()):
    path = os.path.join(work, tag + ".topology.json")
    with open(path, "w") as f:
        json.dump(topo, f)
    return run_topology(vp, path, work, tag, extra)[0]


def compare(ref, other, tag):
    for name, b in ref["boards"].items():
        for key in KEYS:
            check(other["boards"][name].get(key) == b.get(key), "%s: board %s differs in '%s'" % (tag, name, key))
    check(other["switches"] == ref["switches"], "%s: the switch counts differ" % tag)


def main():
    vp, fw_dir, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    for n in (2, 4, 8):
        topo = network.switched(n, fw_dir, busy=True, energy="leon3-90nm-estimate")
        topo["duration"] = "100ms"
        ref = run(vp, topo, work, "n%d" % n)
        rx = ref["boards"]["b1"]["net"]["greth"]["rx_frames"]
        check(rx > 100, "n=%d: b1 received only %d frames" % (n, rx))
        rev = dict(topo, boards=topo["boards"][::-1], links=topo["links"][::-1])
        compare(ref, run(vp, rev, work, "n%d-reversed" % n), "n=%d reversed" % n)
        compare(ref, run(vp, topo, work, "n%d-q1us" % n, ["--quantum", "1us", "--no-dmi"]), "n=%d quantum" % n)
    return finish("network determinism")


if __name__ == "__main__":
    sys.exit(main())
