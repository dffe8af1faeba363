#!/usr/bin/python3
"""CTest driver of scripts/energy-sweep (board-net.energy_sweep, and
board-net.energy_sweep_full with --full, label long):

  check_energy_sweep.py SCRIPT VP FW_DIR [--full]

Runs the sweep (--quick unless --full) into a temporary directory and checks
what it wrote: energy per datagram rises with the forced miss rate and with
the measured miss rate, 1024 B costs more than 64 B, fast < word32 <
generic8 at 1024 B, the analytical prediction at each run's measured miss
rates is within l3vp.energy.SELF_TOLERANCE of the measured energy (and the
unforced run's prediction within the script's BASE_TOLERANCE), the
analytical curves rise with m, the plots are valid PNG/SVG and the summary
has a savings row per miss rate. Also: bad options give one line and exit 2.
"""
import csv
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "lib"))
import l3vp.energy as en  # noqa: E402

VARIANTS = ("generic8", "word32", "fast")


def load_script(path):
    loader = importlib.machinery.SourceFileLoader("energy_sweep", path)
    spec = importlib.util.spec_from_loader("energy_sweep", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def check_bad_options(script, vp, fw):
    cases = [(["--rates", "0,2"], "outside 0..1"), (["--rates", "0,x"], "not a number"),
             (["--jobs", "0"], "--jobs"), (["--profile", "no-such-profile"], "no-such-profile"),
             (["--vp", "/nonexistent"], "--vp"), (["--fw-dir", "/"], "net_udprx.elf"),
             (["--bogus"], "unrecognized")]
    for extra, what in cases + [(None, "--out")]:
        args = [sys.executable, script, "--vp", vp, "--fw-dir", fw]
        args += ["--out", "/nonexistent/out"] + extra if extra is not None else []
        p = subprocess.run(args, capture_output=True, text=True)
        lines = p.stderr.strip().splitlines()
        assert p.returncode == 2 and len(lines) == 1 and what in lines[0], (extra, p.returncode, p.stderr)


def main():
    script, vp, fw = sys.argv[1:4]
    full = "--full" in sys.argv[4:]
    mod = load_script(script)
    check_bad_options(script, vp, fw)
    with tempfile.TemporaryDirectory(prefix="energy-sweep-test-") as out:
        cmd = [sys.executable, script, "--out", out, "--vp", vp, "--fw-dir", fw] + ([] if full else ["--quick"])
        p = subprocess.run(cmd, capture_output=True, text=True)
        assert p.returncode == 0, f"energy-sweep exit {p.returncode}: {p.stderr}"
        with open(os.path.join(out, "runs.csv")) as f:
            rows = list(csv.DictReader(f))
        with open(os.path.join(out, "analytical.csv")) as f:
            curves = list(csv.DictReader(f))
        rates = mod.FULL_RATES if full else mod.QUICK_RATES
        geoms = tuple(mod.GEOMETRIES) if full else ("default",)
        assert len(rows) == len(VARIANTS) * len(mod.SIZES) * len(geoms) * len(rates), len(rows)
        E = {(r["variant"], int(r["size"]), r["geometry"], float(r["icache_force_miss_rate"])): r for r in rows}

        def e(v, s, g, rate):
            return float(E[(v, s, g, rate)]["energy_fj_per_datagram"])

        for v in VARIANTS:
            for s in mod.SIZES:
                for g in geoms:
                    seq = [E[(v, s, g, r)] for r in rates]
                    en_seq = [float(x["energy_fj_per_datagram"]) for x in seq]
                    m_seq = [float(x["miss_rate"]) for x in seq]
                    cy_seq = [float(x["cycles_per_datagram"]) for x in seq]
                    assert all(a < b for a, b in zip(en_seq, en_seq[1:])), (v, s, g, "energy", en_seq)
                    assert all(a < b for a, b in zip(m_seq, m_seq[1:])), (v, s, g, "miss rate", m_seq)
                    assert all(a < b for a, b in zip(cy_seq, cy_seq[1:])), (v, s, g, "cycles", cy_seq)
                for r in rates:
                    assert e(v, 1024, "default", r) > e(v, 64, "default", r), (v, r)
        for r in rates:
            assert e("fast", 1024, "default", r) < e("word32", 1024, "default", r) < \
                e("generic8", 1024, "default", r), ("1024 B order", r)
        worst_self = worst_base = 0.0
        for r in rows:
            meas = float(r["energy_fj_per_datagram"])
            parts = sum(float(r[f"energy_{c}_fj"]) for c in mod.REGION_COMPONENTS)
            assert abs(parts - meas) <= 1.0, ("components do not add up", r)
            self_err = abs(float(r["predicted_self_fj"]) / meas - 1)
            base_err = abs(float(r["predicted_base_fj"]) / meas - 1)
            assert self_err <= en.SELF_TOLERANCE, ("analytical vs measured", self_err, r)
            assert base_err <= mod.BASE_TOLERANCE, ("unforced mix vs measured", base_err, r)
            worst_base = max(worst_base, base_err)
            worst_self = max(worst_self, self_err)
        for v in VARIANTS:
            for s in mod.SIZES:
                c = [float(x["energy_fj_per_datagram"]) for x in curves if (x["variant"], int(x["size"])) == (v, s)]
                assert len(c) > 10 and all(a < b for a, b in zip(c, c[1:])), (v, s, "analytical curve")
        for s in mod.SIZES:
            with open(os.path.join(out, f"energy-{s}B.png"), "rb") as f:
                png = f.read()
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000, ("PNG", s, len(png))
            root = ET.parse(os.path.join(out, f"energy-{s}B.svg")).getroot()
            assert root.tag.endswith("svg"), root.tag
            assert sum(1 for el in root.iter() if el.tag.endswith("path")) > 20, ("SVG without paths", s)
        with open(os.path.join(out, "summary.md")) as f:
            md = f.read()
        for r in rates:
            assert md.count(f"| {r * 100:g} % |") == 2 * len(mod.SIZES), ("summary rows", r)
    print(f"PASS energy_sweep{' (full)' if full else ''}: {len(rows)} configurations; analytical vs measured "
          f"within {worst_self * 100:.2f} % (same run), {worst_base * 100:.2f} % (unforced mix)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print(f"FAIL energy_sweep: {e}")
        sys.exit(1)
