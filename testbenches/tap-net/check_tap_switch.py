#!/usr/bin/python3
"""A real Linux kernel on a simulated switch (docs/network.md "Topologies").

  check_tap_switch.py LEON3VP FW_DIR NETNS_TAP

A topology of two boards (net_ping, 192.168.0.53 and .54) and a TAP port on
one switch; the namespace of scripts/netns-tap pings both boards through
the switch: 3 probes each, every one answered; the switch learned the
namespace's address and forwarded to each board only its own frames after
that. Exit 77 (skip) where TAP devices or namespaces are not allowed, as
run_tap.py.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_tap import Namespace, fail, wait_board_up  # noqa: E402

BOARDS = {"b0": "192.168.0.53", "b1": "192.168.0.54"}


class Run:
    """leon3vp on the topology in the background (what wait_board_up polls)."""

    def __init__(self, vp, topo, stats):
        self.p = subprocess.Popen([vp, "--scenario", topo, "--stats", stats], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)


def main():
    vp, fw_dir, script = sys.argv[1:4]
    with Namespace(script, "sw") as ns, tempfile.TemporaryDirectory() as tmp:
        topo = {"boards": [{"name": b, "elf": os.path.join(os.path.abspath(fw_dir), "net_ping.elf"), "ip": ip,
                            "mac": "02:00:00:00:01:%02x" % (i + 1), "params": {"idle_ms": 3000}}
                           for i, (b, ip) in enumerate(BOARDS.items())],
                "switches": [{"name": "sw0", "ports": 3}],
                "taps": [{"name": "linux", "device": ns.name}],
                "links": [{"a": "b0", "b": "sw0"}, {"a": "b1", "b": "sw0"}, {"a": "linux", "b": "sw0"}],
                "duration": "120s"}
        path, stats = os.path.join(tmp, "topo.json"), os.path.join(tmp, "stats.json")
        with open(path, "w") as f:
            json.dump(topo, f)
        run = Run(vp, path, stats)
        try:
            if wait_board_up(ns, run, 30) is None:
                fail("b0 never answered a ping (30 s): " + (run.p.stderr.read() if run.p.poll() is not None else ""))
            for b, ip in BOARDS.items():
                r = subprocess.run(ns.cmd(["ping", "-n", "-c", "3", "-i", "0.2", "-W", "2", ip]),
                                   capture_output=True, text=True, timeout=60)
                m = re.search(r"(\d+) packets transmitted, (\d+) received", r.stdout)
                if r.returncode != 0 or not m or m.group(2) != "3":
                    fail(f"ping {b} ({ip}) through the switch: {r.stdout}{r.stderr}")
            out, err = run.p.communicate(timeout=120)
        finally:
            if run.p.poll() is None:
                run.p.kill()
                run.p.communicate()
        if run.p.returncode != 0:
            fail(f"leon3vp exit {run.p.returncode}: {err[-1000:]}")
        with open(stats) as f:
            s = json.load(f)
        sw = s["switches"]["sw0"]
        if sw["learned"] < 3:
            fail(f"the switch learned {sw['learned']} addresses, not the 2 boards and the namespace")
        for i, b in enumerate(BOARDS):
            echo = s["boards"][b]["net"]["greth"]["tx_frames"]
            if echo < 4:  # an ARP reply and at least 3 echo replies
                fail(f"{b} sent {echo} frames")
        if s["taps"]["linux"]["from_tap"] < 6:
            fail(f"the TAP port sent {s['taps']['linux']['from_tap']} frames")
    print("tap switch: both boards answered the namespace through the switch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
