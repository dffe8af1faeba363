"""pytest unit tests of scripts/lib/l3vp/energy.py (CTest: pylib.energy):
the analytical energy-versus-miss-rate model on a hand-made mix with
hand-computed totals, the mix extraction from --stats dicts, and profile
loading errors."""
import json
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import l3vp.energy as en  # noqa: E402

CLASSES = en.CLASSES


def profile(**over):
    p = {
        "format": 1, "name": "hand",
        "instruction_pj": {c: 0 for c in CLASSES},
        "icache_miss_pj": 100, "dcache_miss_pj": 200, "stall_cycle_pj": 2, "idle_cycle_pj": 1,
        "static_mw": 0.01, "ahb_transfer_pj": {"default": 3}, "apb_access_pj": 50,
        "sdram_read_word_pj": 7, "sdram_write_word_pj": 9,
    }
    p["instruction_pj"].update(alu=10, load=20, store=30, branch=5)
    p.update(over)
    return en.check_profile(p)


def mix():
    # 200 instructions: 100 alu, 50 load, 10 store, 40 branch; 600 cycles, 100
    # of them idle; 4 I-misses of 10 cycles, 5 D-misses of 7; 30 other stalls.
    by_class = {c: 0 for c in CLASSES}
    by_class.update(alu=100, load=50, store=10, branch=40)
    return {"by_class": by_class, "cycles": 600, "idle_cycles": 100, "other_stall_cycles": 30,
            "i_accesses": 200, "d_accesses": 50, "i_misses": 4, "d_misses": 5,
            "i_fill_cycles": 40, "d_fill_cycles": 35, "i_line_words": 8, "d_line_words": 4,
            "clock_hz": 40_000_000}


def test_predict_hand_computed_at_ten_percent():
    p = en.predict(mix(), profile(), 0.1)
    # Mi = 20, Md = 5; fills 20*10 + 5*7 = 235 cycles; cycles 600 - 75 + 235 = 760
    assert p["cycles"] == pytest.approx(760)
    c = p["by_component"]
    assert c["core"] == pytest.approx(1000 * (1000 + 1000 + 300 + 200 + (30 + 235) * 2))
    assert c["icache"] == pytest.approx(1000 * 20 * 100)
    assert c["dcache"] == pytest.approx(1000 * 5 * 200)
    # 20*8 + 5*4 = 180 fill words, plus 10 write-through stores
    assert c["ahb"] == pytest.approx(1000 * 190 * 3)
    assert c["sdram"] == pytest.approx(1000 * (180 * 7 + 10 * 9))
    # 0.01 mW * 760 / 40 MHz = 1.9e-10 J
    assert c["static"] == pytest.approx(190_000)
    assert c["idle"] == pytest.approx(100_000)
    assert p["energy_fj"] == pytest.approx(8_240_000)


def test_predict_at_measured_rates_gives_measured_cycles():
    m = mix()
    mi, md, comb = en.miss_rates(m)
    assert (mi, md) == (0.02, 0.1)
    assert comb == pytest.approx(9 / 250)
    p = en.predict(m, profile(), (mi, md))
    assert p["cycles"] == pytest.approx(600)
    # 2710 + 400 + 1000 + 186 + 454 + 150 + 100 pJ
    assert p["energy_fj"] == pytest.approx(5_000_000)


def test_predict_zero_and_linearity():
    m, pr = mix(), profile()
    e0 = en.predict(m, pr, 0.0)
    assert e0["cycles"] == pytest.approx(525)
    assert e0["by_component"]["icache"] == 0 and e0["by_component"]["dcache"] == 0
    e1, e2 = en.predict(m, pr, 0.1)["energy_fj"], en.predict(m, pr, 0.2)["energy_fj"]
    assert e2 - e1 == pytest.approx(e1 - e0["energy_fj"])
    assert e1 > e0["energy_fj"]


def test_predict_cpu_master_coefficient_and_bad_rate():
    pr = profile(ahb_transfer_pj={"default": 3, "leon3": 5})
    assert en.predict(mix(), pr, 0.1)["by_component"]["ahb"] == pytest.approx(1000 * 190 * 5)
    assert en.predict(mix(), pr, 0.1, cpu_master="other")["by_component"]["ahb"] == pytest.approx(1000 * 190 * 3)
    with pytest.raises(ValueError):
        en.predict(mix(), pr, 1.5)


def test_fill_cycles_fallbacks():
    m = mix()
    assert en.fill_cycles(m) == (10, 7)
    m["i_misses"], m["i_fill_cycles"] = 0, 0
    assert en.fill_cycles(m) == (7 - 4 + 8, 7)
    m["d_misses"], m["d_fill_cycles"] = 0, 0
    assert en.fill_cycles(m) == (11, 7)


def region(rid, **over):
    r = {"id": rid, "entries": 1, "cycles": 300, "idle_cycles": 0, "instructions": 100,
         "by_class": {"alu": 60, "load": 30, "store": 10},
         "stalls": {"load_use": 4, "branch": 3, "muldiv": 0, "icache_miss": 20, "dcache_miss": 14,
                    "write_buffer": 2, "bus": 1},
         "icache_misses": 2, "dcache_misses": 2}
    r.update(over)
    return r


def test_mix_from_regions_and_sub():
    st = {"clock_hz": 40_000_000, "config": {"icache": {"line_bytes": 16}, "dcache": {"line_bytes": 32}},
          "regions": [region(1), region(2, cycles=500, icache_misses=5), region(3)]}
    m = en.mix_from_regions(st, [1, 2, 9])  # 9 never ran
    assert m["cycles"] == 800 and m["i_misses"] == 7 and m["d_misses"] == 4
    assert m["i_accesses"] == 200 and m["d_accesses"] == 60  # instructions, loads
    assert m["other_stall_cycles"] == 2 * 10 and m["i_fill_cycles"] == 40 and m["d_fill_cycles"] == 28
    assert m["by_class"]["alu"] == 120 and m["by_class"]["trap"] == 0
    assert (m["i_line_words"], m["d_line_words"]) == (4, 8)
    one = en.mix_from_regions(st, [1])
    d = en.mix_sub(m, one)
    assert d["cycles"] == 500 and d["i_misses"] == 5 and d["by_class"]["load"] == 30
    st["regions"][0]["icache_accesses"] = 150
    assert en.mix_from_regions(st, [1])["i_accesses"] == 150
    other = dict(one, clock_hz=50_000_000)
    with pytest.raises(ValueError):
        en.mix_sub(m, other)


def test_mix_from_run():
    cc = {c: 0 for c in CLASSES}
    cc.update(alu=100, load=60)
    st = {"clock_hz": 40_000_000, "cycles": 1000, "idle_cycles": 200, "config": {},
          "instructions": {"by_class": {"alu": 100, "load": 50}},
          "timing": {"class_cycles": cc,
                     "stalls": {"icache_miss": 300, "dcache_miss": 100, "load_use": 5},
                     "icache": {"hits": 140, "misses": 10, "uncached": 3},
                     "dcache": {"read_hits": 40, "read_misses": 5, "uncached_reads": 5}}}
    m = en.mix_from_run(st)
    assert m["other_stall_cycles"] == 1000 - 200 - 160 - 400
    assert (m["i_accesses"], m["d_accesses"]) == (150, 45)
    assert (m["i_line_words"], m["d_line_words"]) == (8, 4)  # template defaults
    # at the measured rates the cycles come back exactly
    assert en.predict(m, profile(), en.miss_rates(m)[:2])["cycles"] == pytest.approx(1000)


def test_load_profile_errors(tmp_path):
    good = tmp_path / "p.json"
    good.write_text(json.dumps(profile()))
    assert en.load_profile(str(good))["name"] == "hand"
    with pytest.raises(en.ProfileError, match="no-such-profile"):
        en.load_profile("no-such-profile")
    bad = dict(profile())
    bad["instruction_pj"] = dict(bad["instruction_pj"], mul=-1)
    (tmp_path / "b.json").write_text(json.dumps(bad))
    with pytest.raises(en.ProfileError, match="'mul'"):
        en.load_profile(str(tmp_path / "b.json"))
    (tmp_path / "c.json").write_text("{")
    with pytest.raises(en.ProfileError, match="not JSON"):
        en.load_profile(str(tmp_path / "c.json"))
    nodef = dict(profile(), ahb_transfer_pj={"greth": 1})
    (tmp_path / "d.json").write_text(json.dumps(nodef))
    with pytest.raises(en.ProfileError, match="ahb_transfer_pj"):
        en.load_profile(str(tmp_path / "d.json"))
