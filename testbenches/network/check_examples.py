#!/usr/bin/python3
"""The shipped network examples (experiments/network/*.topology.json) run
and their data is verified.

  check_examples.py LEON3VP FW_DIR EXAMPLES_DIR WORK_DIR

* board-to-board-udp: b0 sends 200 datagrams to b1 through a switch, no
  host in the path; b1 receives every one with every byte right, both
  boards report their energy, the switch forwarded every frame.
* board-to-board-tcp*: b0 sends 100,000 bytes over TCP to b1 on one cable,
  with our stack or lwIP at either end; b1 verifies every byte; the
  sender's goodput is the one docs/network.md quotes.
* incast-udp: four boards send 100 datagrams each, as fast as they can, to
  one PC on a 10 Mbit/s switch port with an 8-frame output queue: the
  queue fills (high-water 8), frames are dropped at the PC's port, and
  every datagram sent is either received (verified by the PC) or one of
  those drops; the exact figures are those docs/network.md quotes.
* Each run twice, the second with --quantum 1us --no-dmi: the same counts.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nettest import check, finish, localise, run_topology as run  # noqa: E402


def results(stdout):
    """{board: {type: the last JSON result line of that type}} from the prefixed UART lines."""
    out = {}
    for line in stdout.splitlines():
        name, _, text = line.partition(": ")
        if text.startswith("{"):
            r = json.loads(text)
            out.setdefault(name, {})[r.get("type")] = r
    return out



def same_counts(a, b, tag):
    for name in a["boards"]:
        for key in ("instructions", "cycles", "idle_cycles", "energy", "net"):
            check(a["boards"][name][key] == b["boards"][name][key], "%s: %s.%s changes with the quantum" %
                  (tag, name, key))
    check(a["switches"] == b["switches"], "%s: the switch counts change with the quantum" % tag)


def board_to_board(vp, fw_dir, examples, work):
    topo = localise(os.path.join(examples, "board-to-board-udp.topology.json"), fw_dir, work)
    s, out = run(vp, topo, work, "b2b")
    r = results(out)
    tx, rx = r.get("b0", {}).get("result", {}), r.get("b1", {}).get("result", {})
    check(tx.get("sent") == 200 and tx.get("send_err") == 0, "b0 result: %s" % tx)
    check(rx.get("received") == 200 and rx.get("bad") == 0 and rx.get("lost") == 0, "b1 result: %s" % rx)
    check(rx.get("bytes") == 200 * 1472, "b1 bytes: %s" % rx.get("bytes"))
    for b in ("b0", "b1"):
        check(s["boards"][b]["energy"]["total_fj"] > 0, "%s has no energy" % b)
    ports = s["switches"]["sw0"]["ports"]
    check(ports[1]["tx_frames"] >= 200 and ports[0]["rx_frames"] >= 200, "sw0 ports: %s" % ports[:2])
    check(s["run"]["reason"] == "exit", "run: %s" % s["run"])
    s2, _ = run(vp, topo, work, "b2b-q", ["--quantum", "1us", "--no-dmi"])
    same_counts(s, s2, "b2b")


# Sender and receiver stack of each board-to-board TCP example and the
# sender's goodput docs/network.md quotes (bit/s).
TCP_PAIRS = [("", "net_tcpsend", "net_tcpsink", 22112886),
             ("-ours-to-lwip", "net_tcpsend", "lwip_tcpsink", 19731649),
             ("-lwip-to-ours", "lwip_tcpsend", "net_tcpsink", 11637040),
             ("-lwip-to-lwip", "lwip_tcpsend", "lwip_tcpsink", 18718704)]


def board_to_board_tcp(vp, fw_dir, examples, work):
    for tag, sender, sink, goodput in TCP_PAIRS:
        name = "board-to-board-tcp%s.topology.json" % tag
        topo = localise(os.path.join(examples, name), fw_dir, work)
        s, out = run(vp, topo, work, "b2b-tcp" + tag)
        r = results(out)
        tx, rx = r.get("b0", {}).get("result", {}), r.get("b1", {}).get("result", {})
        check(tx.get("app") == sender and rx.get("app") == sink, "%s: programs %s, %s" % (name, tx.get("app"),
                                                                                          rx.get("app")))
        check(tx.get("bytes") == 100000 and tx.get("failed") == 0, "%s: b0 result: %s" % (name, tx))
        check(rx.get("bytes") == 100000 and rx.get("bad") == 0 and rx.get("ok") == 1, "%s: b1 result: %s" % (name, rx))
        check(tx.get("goodput_bps") == goodput, "%s: goodput %s, not docs/network.md's %d" % (name, tx.get("goodput_bps"),
                                                                                            goodput))
        for b in ("b0", "b1"):
            check(s["boards"][b]["energy"]["total_fj"] > 0, "%s: %s has no energy" % (name, b))


def incast(vp, fw_dir, examples, work):
    topo = localise(os.path.join(examples, "incast-udp.topology.json"), fw_dir, work)
    s, out = run(vp, topo, work, "incast")
    r = results(out)
    sent = sum(r.get(b, {}).get("result", {}).get("sent", 0) for b in ("s0", "s1", "s2", "s3"))
    check(sent == 400, "the senders sent %d datagrams" % sent)
    exps = s["hosts"]["pc"]["experiments"]
    received = sum(e["received"] for e in exps)
    check(all(e["bad"] == 0 and e["duplicates"] == 0 for e in exps), "pc: bad or duplicate datagrams: %s" % exps)
    pc_port = s["switches"]["sw0"]["ports"][4]
    drops = pc_port["drops_queue_full"]
    check(drops > 0, "no drops at the PC's port")
    check(pc_port["queue_hw_frames"] == 8, "queue high-water %s" % pc_port["queue_hw_frames"])
    check(received + drops == 400, "received %d + dropped %d != 400 sent" % (received, drops))
    # The figures docs/network.md "Topologies" quotes.
    per_sender = [e["received"] for e in exps]
    check(per_sender == [43, 3, 6, 6] and drops == 342,
          "received %s, dropped %d: not docs/network.md's [43, 3, 6, 6] and 342" % (per_sender, drops))
    for b in ("s0", "s1", "s2", "s3"):
        check(s["boards"][b]["energy"]["total_fj"] > 0, "%s has no energy" % b)
    s2, _ = run(vp, topo, work, "incast-q", ["--quantum", "1us", "--no-dmi"])
    same_counts(s, s2, "incast")


def main():
    vp, fw_dir, examples, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    board_to_board(vp, fw_dir, examples, work)
    board_to_board_tcp(vp, fw_dir, examples, work)
    incast(vp, fw_dir, examples, work)
    return finish("network examples")


if __name__ == "__main__":
    sys.exit(main())
