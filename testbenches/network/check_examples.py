#!/usr/bin/python3
"""The shipped network examples (experiments/network/*.topology.json) run
and their data is verified.

  check_examples.py LEON3VP FW_DIR EXAMPLES_DIR WORK_DIR

* board-to-board-udp: b0 sends 200 datagrams to b1 through a switch, no
  host in the path; b1 receives every one with every byte right, both
  boards report their energy, the switch forwarded every frame.
* board-to-board-ping: b0 (net_pinger) pings b1 (net_ping) 20 times
  through a switch: every reply verified, no round trip below the wire's
  minimum, the round trips and energies per frame docs/network.md quotes.
* our stack against lwIP as the receiving board (ping and UDP): verified,
  the figures docs/network.md quotes.
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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from l3vp.waveform import Wave  # noqa: E402


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


def region_nj(stats, board, rid):
    """(frames, nJ per frame to one decimal) of a board's region."""
    reg = [x for x in stats["boards"][board]["regions"] if x["id"] == rid]
    return (reg[0]["entries"], round(reg[0]["energy_fj"] / reg[0]["entries"] / 1e6, 1)) if reg else (0, None)


# What docs/network.md quotes of board-to-board-ping: b0's round trips
# (first, min, avg, max in ns) and the energy per frame (nJ, one decimal)
# of b0's send path (region net.tx), b0's receive path (net.rx) and b1's
# receive path with its reply.
PING_RTTS = (477900, 178400, 180236, 185700)
PING_NJ = {("b0", 0x4e455402): 33.5, ("b0", 0x4e455201): 123.1, ("b1", 0x4e455201): 95.3}


def board_to_board_ping(vp, fw_dir, examples, work):
    topo = localise(os.path.join(examples, "board-to-board-ping.topology.json"), fw_dir, work)
    s, out = run(vp, topo, work, "b2b-ping")
    r = results(out)
    tx, rx = r.get("b0", {}).get("result", {}), r.get("b1", {}).get("result", {})
    check(tx.get("app") == "net_pinger" and rx.get("app") == "net_ping", "programs: %s, %s" % (tx, rx))
    check((tx.get("sent"), tx.get("received"), tx.get("bad"), tx.get("lost")) == (20, 20, 0, 0), "b0: %s" % tx)
    check(rx.get("echo_rx") == 20 and rx.get("echo_tx") == 20, "b1: %s" % rx)
    rtts = tuple(tx.get(k) for k in ("first_rtt_ns", "rtt_min_ns", "rtt_avg_ns", "rtt_max_ns"))
    check(rtts[1] <= rtts[2] <= rtts[3] < rtts[0], "RTTs out of order: %s" % (rtts,))
    # 4 cable crossings of a 98-byte frame (+ FCS, preamble: 110 bytes, 8.8 us
    # each), 2 switch latencies of 2 us: no echo can come back sooner
    check(rtts[1] > 4 * 8800 + 2 * 2000, "RTT %d ns below the wire's minimum" % rtts[1])
    check(rtts == PING_RTTS, "RTTs %s, not docs/network.md's %s" % (rtts, PING_RTTS))
    for (b, rid), nj in PING_NJ.items():
        frames, got = region_nj(s, b, rid)
        check(got == nj and frames == 21, "%s region %#x: %s nJ per frame (%s), not %s" % (b, rid, got, frames, nj))
    turn = [x for x in s["boards"]["b1"]["regions"] if x["id"] == 0x4e455201]
    check(turn and round(turn[0]["cycles"] / turn[0]["entries"] / 40) == 45,
          "b1's turnaround is not docs/network.md's 45 us: %s" % turn)   # 40 cycles per us
    s2, _ = run(vp, topo, work, "b2b-ping-q", ["--quantum", "1us", "--no-dmi"])
    same_counts(s, s2, "b2b-ping")


# Our stack against lwIP on the receiving board (docs/network.md "Our stack
# and lwIP, board to board"): the receiver's program, what the sender or
# receiver measures, and b1's energy per frame of its receive (net.rx) and
# send (net.tx) paths.
STACKS = [("board-to-board-ping", "net_ping", ("b0", "rtt_avg_ns", 180236), (95.3, 12.1)),
          ("board-to-board-ping-ours-to-lwip", "lwip_ping", ("b0", "rtt_avg_ns", 280626), (271.4, 52.4)),
          ("board-to-board-udp", "net_udprx", ("b1", "goodput_bps", 16686656), (1471.3, 53.8)),
          ("board-to-board-udp-ours-to-lwip", "lwip_udprx", ("b1", "goodput_bps", 13748615), (1526.5, 58.2))]


def ours_and_lwip(vp, fw_dir, examples, work):
    for name, receiver, (who, key, value), (rx_nj, tx_nj) in STACKS:
        topo = localise(os.path.join(examples, name + ".topology.json"), fw_dir, work)
        s, out = run(vp, topo, work, name)
        r = results(out)
        b0, b1 = r.get("b0", {}).get("result", {}), r.get("b1", {}).get("result", {})
        check(b1.get("app") == receiver, "%s: b1 runs %s" % (name, b1.get("app")))
        if "ping" in name:
            check((b0.get("received"), b0.get("bad"), b1.get("echo_tx")) == (20, 0, 20), "%s: %s %s" % (name, b0, b1))
        else:
            check((b1.get("received"), b1.get("bad"), b1.get("lost")) == (200, 0, 0), "%s: b1 %s" % (name, b1))
        got = {"b0": b0, "b1": b1}[who].get(key)
        check(got == value, "%s: %s.%s %s, not docs/network.md's %s" % (name, who, key, got, value))
        nj = (region_nj(s, "b1", 0x4e455201)[1], region_nj(s, "b1", 0x4e455402)[1])
        check(nj == (rx_nj, tx_nj), "%s: b1 nJ per frame (rx, tx) %s, not docs/network.md's %s" %
              (name, nj, (rx_nj, tx_nj)))


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
    vcd = os.path.join(work, "incast-sw0.vcd")   # the switch's waveform changes no count either
    s2, _ = run(vp, topo, work, "incast-q", ["--quantum", "1us", "--no-dmi", "--vcd", "sw0=" + vcd])
    same_counts(s, s2, "incast")
    check_switch_wave(vcd, s["switches"]["sw0"]["ports"])


def check_switch_wave(path, ports):
    """--vcd sw0=FILE: per port, the queue's peak is the high-water mark, the
    running counts end at the port's frames and drops, one wire span per frame."""
    w = Wave(path)
    for i, st in enumerate(ports):
        sig = "sw0.p%d." % i
        last = lambda name: w[sig + name][-1][1] if w[sig + name] else 0  # noqa: E731
        peak = max((v for _, v in w[sig + "queue_frames"]), default=0)
        check(peak == st["queue_hw_frames"], "%squeue_frames peaks at %d, high-water %d" % (sig, peak,
                                                                                           st["queue_hw_frames"]))
        check(last("queue_frames") == 0, "%squeue_frames does not end empty" % sig)
        check(last("forwarded") == st["tx_frames"], "%sforwarded %d != tx_frames %d" % (sig, last("forwarded"),
                                                                                       st["tx_frames"]))
        dropped = sum(st[k] for k in ("drops_queue_full", "drops_no_link", "filtered", "rx_control", "rx_crc_errors",
                                      "rx_oversize", "rx_runts"))
        check(last("drops") == dropped, "%sdrops %d, the port counted %d" % (sig, last("drops"), dropped))
        check(len(w.spans(sig + "tx")) == st["tx_frames"], "%stx: %d spans" % (sig, len(w.spans(sig + "tx"))))


def main():
    vp, fw_dir, examples, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    board_to_board(vp, fw_dir, examples, work)
    board_to_board_ping(vp, fw_dir, examples, work)
    ours_and_lwip(vp, fw_dir, examples, work)
    board_to_board_tcp(vp, fw_dir, examples, work)
    incast(vp, fw_dir, examples, work)
    return finish("network examples")


if __name__ == "__main__":
    sys.exit(main())
