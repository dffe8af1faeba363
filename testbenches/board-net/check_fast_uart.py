#!/usr/bin/env python3
"""board-net.fast_uart: the fast UART (uart.fast, models/periph/apbuart/README.md)
changes only the timing of UART-bound code.

  * hello: the same UART output and exit status, fewer instructions and
    cycles (the busy-wait on the transmitter is gone);
  * net_ping with its scenario: the same regions[] (every figure of every
    per-packet region), the same UART lines but for the elapsed-time field
    ("ms", which counts the time spent printing), fewer instructions;
  * `--set uart.fast=false` is the default: every statistic as without it.

usage: check_fast_uart.py LEON3VP FW_DIR SCENARIO_DIR"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import l3vp  # noqa: E402

FAST = ["--set", "uart.fast=true"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(vp, elf, extra):
    r = l3vp.run(vp, elf, quiet=True, stats=True, uart=True, extra=extra)
    if r.crashed or r.returncode != 0:
        fail(f"{r.cmd}: exit {r.returncode}: {r.last_stderr_line()}")
    s = dict(r.stats)
    for k in ("host", "version"):  # host time; the configuration hash
        s.pop(k, None)
    s["config"]["uart"].pop("out")  # the run's temporary directory
    return s, r.uart


def fewer(name, s0, s1):
    i0, i1 = s0["instructions"]["total"], s1["instructions"]["total"]
    c0, c1 = s0["cycles"], s1["cycles"]
    if not (i1 < i0 and c1 < c0):
        fail(f"{name}: fast UART {i1} instructions / {c1} cycles, default {i0} / {c0}: not fewer")
    if s0["devices"]["uart"] != s1["devices"]["uart"]:
        fail(f"{name}: devices.uart {s1['devices']['uart']} != {s0['devices']['uart']}")
    print(f"{name}: instructions {i0} -> {i1}, cycles {c0} -> {c1}")


def main():
    vp, fw, scn = sys.argv[1:4]
    hello = os.path.join(fw, "hello.elf")
    s0, u0 = run(vp, hello, [])
    s1, u1 = run(vp, hello, FAST)
    if u0 != u1 or not u0:
        fail("hello: the UART output differs with the fast UART")
    if s1["config"]["uart"]["fast"] is not True or s0["config"]["uart"]["fast"] is not False:
        fail("config.uart.fast is not echoed")
    fewer("hello", s0, s1)
    s2, u2 = run(vp, hello, ["--set", "uart.fast=false"])
    if (s2, u2) != (s0, u0):
        fail("--set uart.fast=false changed a statistic or the UART output")

    ping = [os.path.join(fw, "net_ping.elf"), ["--scenario", os.path.join(scn, "ping.scenario.json")]]
    p0, v0 = run(vp, ping[0], ping[1])
    p1, v1 = run(vp, ping[0], ping[1] + FAST)
    if not p0["regions"] or p0["regions"] != p1["regions"]:
        fail("net_ping: regions[] differ with the fast UART")

    def timeless(text):
        return re.sub(r'"ms":\d+', '"ms":_', text)
    if timeless(v0) != timeless(v1) or v0.count("\n") < 3:
        fail("net_ping: UART lines differ beyond the elapsed time")
    fewer("net_ping", p0, p1)
    print(f"PASS: {len(p0['regions'])} regions identical, UART output identical")


if __name__ == "__main__":
    main()
