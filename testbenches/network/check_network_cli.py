#!/usr/bin/python3
"""leon3vp with a topology scenario (several boards, docs/network.md "Topologies").

  check_network_cli.py LEON3VP FW_DIR WORK_DIR

* pairs.topology.json: b0-pc0 is board-net's ping scenario; its board must
  measure exactly what the same board measures alone (`leon3vp net_ping.elf
  --scenario testbenches/board-net/ping.scenario.json`): instructions,
  cycles, cache, bus, GRETH, link and energy statistics and the host's ping
  results, value for value. b1-pc1 (another schedule, a 10 Mbit/s cable with
  the board at its end b) runs beside it and ends with its own counts.
* The same topology with --quantum 1us and --no-dmi gives the same counts.
* --uart-out BOARD=FILE writes that board's lines; the other board's lines
  are on stdout, prefixed with its name.
* --pcap NODE=FILE captures every frame delivered on that node's cable.
* --vcd BOARD=FILE writes that board's waveform under its own scope.
* --profile BOARD=FILE writes that board's profile and changes no count.
* A program of the user's own (no fw_params block) runs on a board.
* Bad command lines are one line and exit 2.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nettest import check, finish, localise  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import l3vp.pcap  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# The board statistics that a run alone and a run in a network share (the
# executable's own blocks, stop/host/version, exist only in a single run).
SHARED = ["instructions", "cycles", "idle_cycles", "traps", "timing", "bus", "devices", "log", "sim_time_ps",
          "net.greth", "net.link", "net.turnaround"]


def at(doc, path):
    for k in path.split("."):
        doc = doc.get(k) if isinstance(doc, dict) else None
    return doc



def run(vp, args, expect=0):
    p = subprocess.run([vp] + args, capture_output=True, text=True, timeout=600)
    check(p.returncode == expect, "%s: exit %d, expected %d; stderr: %s" % (" ".join(args), p.returncode, expect,
                                                                           p.stderr.strip()[-400:]))
    return p



def alone(vp, fw_dir, work):
    stats = os.path.join(work, "alone.json")
    results = os.path.join(work, "alone-results.json")
    # The board's addresses as a topology writes them into fw_params.
    run(vp, [os.path.join(fw_dir, "net_ping.elf"), "--scenario",
             os.path.join(HERE, "..", "board-net", "ping.scenario.json"), "--fw-param", "count=20",
             "--fw-param", "board_ip=192.168.0.53", "--fw-param", "mac=02:00:00:00:00:53",
             "--stats", stats, "--net-results", results, "-q"])
    with open(stats) as f, open(results) as g:
        return json.load(f), json.load(g)


def network(vp, topo, work, tag, extra=()):
    stats = os.path.join(work, tag + ".json")
    p = run(vp, ["--scenario", topo, "--stats", stats, "-q"] + list(extra))
    if p.returncode != 0:
        sys.exit(finish("stopped at " + tag))
    with open(stats) as f:
        return json.load(f), p


def check_pairs(vp, fw_dir, work):
    one, one_results = alone(vp, fw_dir, work)
    topo = localise(os.path.join(HERE, "pairs.topology.json"), fw_dir, work)
    net, p = network(vp, topo, work, "pairs")
    b0 = net["boards"]["b0"]
    for key in SHARED:
        check(at(one, key) is not None, "single-board --stats has no '%s'" % key)
        check(at(b0, key) == at(one, key), "b0 in the network differs from the board alone in '%s'" % key)
    check(net["hosts"]["pc0"]["experiments"] == one_results["experiments"],
          "pc0's pings differ from the single-board scenario's")
    check(net["run"]["reason"] == "exit" and net["run"]["status"] == 0, "run: %s" % net["run"])
    b1 = net["boards"]["b1"]
    pings = net["hosts"]["pc1"]["experiments"][0]
    check(pings["transmitted"] == 7 and pings["received"] == 7, "pc1: %s" % pings)
    check(b1["net"]["greth"] != b0["net"]["greth"], "b1's GRETH counts are b0's")
    check(net["links"][1]["a"] == "pc1" and net["links"][1]["cable"] == "b1.eth", "links[1]: %s" % net["links"][1])
    check(net["links"][1]["a_to_b"]["delivered"] == b1["net"]["link"]["to_board"]["delivered"],
          "pc1 -> b1 counted differently by the link and by the board")
    lines = [l for l in p.stdout.splitlines() if l]
    check(any(l.startswith("b0: ") for l in lines) and any(l.startswith("b1: ") for l in lines),
          "stdout has no prefixed UART lines of both boards: %r" % lines[:4])
    check(all(l.startswith(("b0: ", "b1: ")) for l in lines), "unprefixed stdout lines: %r" % lines[:4])
    return topo, net


def check_fw_dir(vp, fw_dir, work, net):
    """--fw-dir: the shipped file as it is (ELF names relative), the same run."""
    other, _ = network(vp, os.path.join(HERE, "pairs.topology.json"), work, "pairs-fw-dir",
                       ["--fw-dir", os.path.abspath(fw_dir)])
    check(other["boards"] == net["boards"], "--fw-dir gives other board statistics")


def check_invariance(vp, topo, work, net):
    other, _ = network(vp, topo, work, "pairs-q1us", ["--quantum", "1us", "--no-dmi"])
    for b in ("b0", "b1"):
        for key in ("instructions", "cycles", "idle_cycles", "timing", "net"):
            check(other["boards"][b][key] == net["boards"][b][key],
                  "%s: '%s' changes with --quantum 1us --no-dmi" % (b, key))


def check_uart_out(vp, topo, work):
    path = os.path.join(work, "b1.uart")
    _, p = network(vp, topo, work, "pairs-uart", ["--uart-out", "b1=" + path])
    with open(path) as f:
        text = f.read()
    check("b1: " not in text and len(text) > 0, "b1's UART file: %r" % text[:80])
    check(not any(l.startswith("b1: ") for l in p.stdout.splitlines()), "b1's lines still on stdout")


def check_pcap(vp, topo, work):
    """--pcap NODE=FILE: every frame delivered on that node's cable, both ways."""
    files = {n: os.path.join(work, n + ".pcap") for n in ("b1", "pc0")}
    net, _ = network(vp, topo, work, "pairs-pcap", ["--pcap", "b1=" + files["b1"], "--pcap", "pc0=" + files["pc0"]])
    for node, k in (("b1", 1), ("pc0", 0)):
        link = net["links"][k]
        want = link["a_to_b"]["delivered"] + link["b_to_a"]["delivered"]
        recs = l3vp.pcap.records(files[node])
        check(len(recs) == want and want > 0, "%s.pcap: %d records, the link delivered %d" % (node, len(recs), want))
        check([r[0] for r in recs] == sorted(r[0] for r in recs), "%s.pcap: time stamps out of order" % node)


def check_vcd(vp, topo, work):
    """--vcd BOARD=FILE: each board's waveform under a scope of its own name."""
    files = {b: os.path.join(work, b + ".vcd") for b in ("b0", "b1")}
    network(vp, topo, work, "pairs-vcd", ["--vcd", "b0=" + files["b0"], "--vcd", "b1=" + files["b1"]])
    for b, path in files.items():
        with open(path) as f:
            text = f.read()
        head, _, body = text.partition("$enddefinitions")
        other = "b1" if b == "b0" else "b0"
        check("$scope module %s $end" % b in head and "$scope module %s $end" % other not in head,
              "%s: the header does not name only its board" % path)
        check(body.count("\n#") > 100, "%s: only %d time steps" % (path, body.count("\n#")))


def check_own_program(vp, fw_dir, work):
    """A program without a fw_params block (hello) runs on a board as it is;
    given params, it is refused."""
    t = {"boards": [{"name": "b0", "elf": os.path.join(os.path.abspath(fw_dir), "hello.elf")}],
         "hosts": [{"name": "pc"}], "links": [{"a": "b0", "b": "pc"}]}
    path = os.path.join(work, "hello.topology.json")
    with open(path, "w") as f:
        json.dump(t, f)
    p = run(vp, ["--scenario", path])
    check("b0: " in p.stdout, "hello's UART lines: %r" % p.stdout[:200])
    t["boards"][0]["params"] = {"count": 1}
    with open(path, "w") as f:
        json.dump(t, f)
    p = run(vp, ["--scenario", path], expect=2)
    check("no 'fw_params' symbol" in p.stderr, "hello with params: %r" % p.stderr)


def check_profile(vp, topo, work, net):
    """--profile BOARD=FILE: that board's flat profile; profiling changes no count."""
    path = os.path.join(work, "b0.prof")
    other, _ = network(vp, topo, work, "pairs-profile", ["--profile", "b0=" + path])
    with open(path) as f:
        text = f.read()
    check(text.startswith("leon3vp profile") and "netapp_loop" in text, "b0.prof: %r" % text[:120])
    for key in ("instructions", "cycles", "idle_cycles", "timing", "net"):
        check(other["boards"]["b0"][key] == net["boards"]["b0"][key], "--profile changes b0's '%s'" % key)


def check_bad(vp, topo, fw_dir, work):
    cases = [
        ([os.path.join(fw_dir, "net_ping.elf"), "--scenario", topo], "leave"),
        (["--scenario", topo, "--uart-out", "b9=x.txt"], "'b9' is not a board (b0, b1)"),
        (["--scenario", topo, "--uart-out", "b1"], "is not BOARD=FILE"),
        (["--scenario", topo, "--pcap", "mars=x.pcap"], "--pcap: 'mars' is no end of a link"),
        (["--scenario", topo, "--fw-dir", "/nonexistent"], "--fw-dir"),
        (["--scenario", topo, "--vcd", "pc0=x.vcd"], "--vcd: 'pc0' is not a board"),
        (["--scenario", topo, "--profile", "pc0=x.prof"], "--profile: 'pc0' is not a board"),
        (["--scenario", topo, "--profile", "b0=/nonexistent/dir/x.prof"], "--profile: write to"),
        (["--scenario", topo, "--pcap", "b0=/nonexistent/dir/x.pcap"], "--pcap: "),
        (["--scenario", topo, "--trace", "x.txt"], "unknown option '--trace'"),
        (["--scenario", topo, "--set", "cpu.nwin=99"], "--set: key 'cpu.nwin'"),
        (["--scenario", topo, "--stats", "/nonexistent/dir/s.json"], "--stats: cannot open"),
    ]
    for args, text in cases:
        p = run(vp, args, expect=2)
        err = p.stderr.strip()
        check(err.count("\n") == 0 and err.startswith("leon3vp: error: ") and text in err,
              "%s: stderr %r lacks %r" % (" ".join(args[-2:]), err, text))
    bad = json.load(open(topo))
    bad["boards"][1]["set"] = {"cpu.nwin": 1}
    path = os.path.join(work, "bad.topology.json")
    with open(path, "w") as f:
        json.dump(bad, f)
    p = run(vp, ["--scenario", path], expect=2)
    check("board b1: config: " in p.stderr, "a bad board: %r" % p.stderr)


def main():
    vp, fw_dir, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    topo, net = check_pairs(vp, fw_dir, work)
    check_invariance(vp, topo, work, net)
    check_fw_dir(vp, fw_dir, work, net)
    check_uart_out(vp, topo, work)
    check_pcap(vp, topo, work)
    check_vcd(vp, topo, work)
    check_profile(vp, topo, work, net)
    check_bad(vp, topo, fw_dir, work)
    check_own_program(vp, fw_dir, work)
    return finish("network CLI")


if __name__ == "__main__":
    sys.exit(main())
