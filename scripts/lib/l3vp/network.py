"""Topology scenarios made by program (docs/network.md "Topologies"): N
boards on one switch, idle or sending to each other, for the scaling
benchmark (scripts/bench-network) and the determinism test
(testbenches/network/check_determinism.py)."""
import os


def board_ip(i):
    return "192.168.0.%d" % (10 + i)


def switched(n, fw_dir, busy, count=100000, energy=None):
    """N boards (1..62) on one switch.

    busy=False: every board runs net_ping with no traffic (the board loop
    idles in power-down between timer ticks). busy=True: boards pair up,
    board 2k (net_udptx) sends `count` datagrams of 1472 bytes back to back
    to board 2k+1 (net_udprx); an odd last board idles. Each board's link
    is given its switch port explicitly (board i on port i), so the wiring
    does not depend on the order of the lists."""
    fw_dir = os.path.abspath(fw_dir)
    boards, links = [], []
    for i in range(n):
        b = {"name": "b%d" % i, "elf": os.path.join(fw_dir, "net_ping.elf"), "ip": board_ip(i),
             "mac": "02:00:00:00:01:%02x" % (i + 1), "params": {}}
        if busy and i % 2 == 0 and i + 1 < n:
            b["elf"] = os.path.join(fw_dir, "net_udptx.elf")
            b["params"] = {"peer_ip": board_ip(i + 1), "port": 5002, "count": count, "bytes": 1472, "window": 1}
        elif busy and i % 2 == 1:
            b["elf"] = os.path.join(fw_dir, "net_udprx.elf")
            b["params"] = {"port": 5002, "count": 0, "idle_ms": 0}
        if energy:
            b["energy"] = energy
        boards.append(b)
        links.append({"a": b["name"], "b": "sw0:%d" % i})
    return {"comment": "%d boards on one switch, %s" % (n, "sending in pairs" if busy else "idle"),
            "boards": boards, "switches": [{"name": "sw0", "ports": max(2, n)}], "links": links}
