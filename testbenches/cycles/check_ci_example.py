#!/usr/bin/python3
"""The worked example of docs/cycles.md "Cycle regression in CI", run for
real (CTest cycles.ci_example).

    check_ci_example.py LEON3VP FIRMWARE_SRC LWIP_DIR [--update-doc]

Copies the firmware sources to a temporary folder, puts a 25-turn empty
loop into the ICMP echo path (firmware/net/ip.c, icmp_input, after
echo_rx++), builds net_ping from that copy with the firmware's own CMake
project, runs it as testbenches/cycles/golden/net_ping.json says, and then:

  - scripts/cycles-compare --ci GOLDEN NEW --elf NEW.elf --markdown F
    must exit 1 with the REGRESSION headline naming a region whose
    instructions grew, and its output must be the doc's block between
    <!-- ci-example:begin --> and <!-- ci-example:end --> (--update-doc
    rewrites the block instead);
  - the golden test itself (run_cycles_test.py) against the patched build
    must fail (exit 1) with that same headline in its first lines: a
    failing golden says which region moved.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
DOC = os.path.join(REPO, "docs", "cycles.md")
GOLDEN = os.path.join(HERE, "golden", "net_ping.json")
sys.path.insert(0, os.path.join(REPO, "scripts", "lib"))
from l3vp import cycles  # noqa: E402

ANCHOR = "  net_stats.icmp.echo_rx++;\n"
LOOP = ("  { /* DEMO regression (docs/cycles.md): a pointless extra loop */\n"
        "    volatile unsigned spin;\n"
        "    for (spin = 0; spin < 25; spin++)\n"
        "      ;\n"
        "  }\n")
BEGIN, END = "<!-- ci-example:begin -->", "<!-- ci-example:end -->"


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def build_patched(fw_src, lwip, tmp):
    """net_ping.elf of the firmware with the loop; returns its folder."""
    src = os.path.join(tmp, "firmware")
    shutil.copytree(fw_src, src)
    ip_c = os.path.join(src, "net", "ip.c")
    with open(ip_c) as f:
        text = f.read()
    if text.count(ANCHOR) != 1:
        fail(f"firmware/net/ip.c: the line {ANCHOR.strip()!r} is not there once; update the example")
    with open(ip_c, "w") as f:
        f.write(text.replace(ANCHOR, ANCHOR + LOOP))
    bld = os.path.join(tmp, "build")
    tc = os.path.join(REPO, "scripts", "cmake", "sparc-leon3.cmake")
    for argv in (["cmake", "-S", src, "-B", bld, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                  f"-DCMAKE_TOOLCHAIN_FILE={tc}", "-DNET_ZERO_COPY=ON", f"-DLWIP_DIR={lwip}"],
                 ["cmake", "--build", bld, "--target", "net_ping"]):
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            fail(f"{' '.join(argv[:3])}: exit {p.returncode}\n{p.stdout[-3000:]}")
    return bld


def doc_block(text):
    m = re.search(re.escape(BEGIN) + r"\n```\n(.*?)```\n" + re.escape(END), text, re.S)
    if not m:
        fail(f"docs/cycles.md: no ```-block between {BEGIN} and {END}")
    return m


def main():
    vp, fw_src, lwip = sys.argv[1:4]
    update = "--update-doc" in sys.argv[4:]
    tmp = tempfile.mkdtemp(prefix="cycles-ci-example-")
    try:
        fw = build_patched(fw_src, lwip, tmp)
        _, new = cycles.run_golden(vp, fw, GOLDEN)
        stats = os.path.join(tmp, "new.json")
        with open(stats, "w") as f:
            import json
            json.dump(cycles.to_golden(new), f)
        md = os.path.join(tmp, "summary.md")
        argv = [sys.executable, os.path.join(REPO, "scripts", "cycles-compare"), "--ci",
                GOLDEN, stats, "--markdown", md]
        env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        print(p.stdout + p.stderr, end="")
        out = p.stdout
        if p.returncode != 1:
            fail(f"cycles-compare --ci: exit {p.returncode}, expected 1")
        first = out.splitlines()[0]
        if not re.match(r"REGRESSION: net\.proto SLOWER: cycles \+\d+ \([^)]*\), instructions \+\d+", first):
            fail(f"first line {first!r}: expected net.proto SLOWER (the loop's region)")
        with open(md) as f:
            if "| `net.proto` |" not in f.read():
                fail("--markdown: no net.proto row")
        check_golden_test(vp, fw, first)
        with open(DOC) as f:
            text = f.read()
        m = doc_block(text)
        shown = "$ scripts/cycles-compare --ci testbenches/cycles/golden/net_ping.json new.json\n" + out
        if update:
            with open(DOC, "w") as f:
                f.write(text[:m.start(1)] + shown + text[m.end(1):])
            print("docs/cycles.md: block updated")
        elif m.group(1) != shown:
            fail("docs/cycles.md: the ci-example block differs from this run "
                 "(check_ci_example.py ... --update-doc rewrites it; review the prose around it)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("PASS")


def check_golden_test(vp, fw, headline):
    """The exact golden test fails on the patched build and says first
    which region moved."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "run_cycles_test.py"), "--vp", vp,
                        "--fw-dir", fw, GOLDEN], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = p.stdout.splitlines()
    print("$ run_cycles_test.py (patched build), first lines:\n" + "\n".join(lines[:4]))
    if p.returncode != 1:
        fail(f"run_cycles_test.py on the patched build: exit {p.returncode}, expected 1")
    if headline not in lines[:3]:
        fail(f"run_cycles_test.py: {headline!r} not in its first three lines")


if __name__ == "__main__":
    main()
