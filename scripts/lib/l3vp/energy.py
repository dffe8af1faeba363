"""Energy profiles and the analytical energy-versus-miss-rate model.

leon3vp's energy model (`--energy PROFILE`, docs/energy.md) charges every
run exactly from its counters. This module answers the other question of
the reference study: given one run's instruction mix, what would the energy
be at an *assumed* cache-miss rate m? (The study's board could not measure
misses, so it plotted energy against m.)

    prof = l3vp.energy.load_profile("leon3-90nm-estimate")   # or a path
    mix = l3vp.energy.mix_from_regions(stats, PHASE_IDS)     # or mix_from_run(stats)
    p = l3vp.energy.predict(mix, prof, 0.05)                 # m on both caches
    p = l3vp.energy.predict(mix, prof, (0.01, 0.08))         # (I-cache, D-cache)
    p["energy_fj"], p["cycles"], p["by_component"]

The mix
-------
A dict of additive counts (so the mix of N datagrams is the difference of
two runs' mixes, `mix_sub`, and the mix of one datagram that divided by N,
`mix_scale`) and three constants:

    by_class            retired instructions per class
    cycles, idle_cycles
    other_stall_cycles  stall cycles not caused by cache misses (load-use,
                        branch, mul/div, write buffer, uncached bus reads)
    i_accesses, d_accesses   I-cache fetch accesses, D-cache read accesses
    i_misses, d_misses       I-cache misses, D-cache read misses
    i_fill_cycles, d_fill_cycles   stall cycles of those misses (line fills)
    i_line_words, d_line_words     (constants) AHB beats per line fill
    clock_hz                       (constant)

The model (coefficients from the profile, pJ converted to fJ)
-------------------------------------------------------------
With mi, md the assumed I- and D-cache miss rates, Ai, Ad the accesses,
ci = i_fill_cycles / i_misses and cd = d_fill_cycles / d_misses the
measured cycles per line fill (falling back to the other cache's, or to
3 + line words, when a mix has no miss of one kind), wi, wd the words per
line:

    Mi(mi) = mi * Ai                          Md(md) = md * Ad
    cycles(m) = cycles - i_fill_cycles - d_fill_cycles + Mi*ci + Md*cd
    S(m)      = other_stall_cycles + Mi*ci + Md*cd
    E(m) = sum_c N_c * E_c                                    core
         + S(m) * E_stall                                     core
         + Mi * E_icm                                         icache
         + Md * E_dcm                                         dcache
         + (Mi*wi + Md*wd) * E_ahb[cpu]  + N_store * E_ahb[cpu]   ahb
         + (Mi*wi + Md*wd) * E_sdram_rd  + N_store * E_sdram_wr   sdram
         + idle_cycles * E_idle                               idle
         + static_mw * cycles(m) / clock_hz                   static

i.e. the instruction mix is held fixed and every miss costs its line fill:
the miss energy of the profile, the fill's stall cycles (stall energy and
leakage over the longer run) and the fill's bus beats and SDRAM words.
Write-through stores are one AHB beat and one SDRAM word each.

Not in the model, so a prediction at a run's own measured rates is close
to, not equal to, the run's measured energy (within `SELF_TOLERANCE`;
scripts/energy-sweep measures 0.3-1.4 % low on the UDP receive path with
leon3-90nm-estimate):
  * non-miss bus traffic the instruction mix does not show: the second
    word of STD (the libc memcpy copies with LDD/STD, so at 1024 bytes
    about 250 AHB beats and SDRAM words per datagram, the largest part),
    stores to APB (the region BEGIN markers: APB accesses, not SDRAM
    words), uncached reads;
  * when the mix comes from regions: annulled-slot and trap-entry cycles,
    which the energy model charges as stall cycles but the region figures
    cannot separate from issue cycles; fetch accesses are taken as the
    retired instructions and D-cache read accesses as the loads (uncached
    loads included): regions carry no access counts;
  * pair (inter-instruction) overheads of the fine mode.
"""
import json
import os

CLASSES = ("alu", "load", "store", "branch", "call_jmpl", "mul", "div", "save_restore", "trap",
           "other")
# pJ coefficients of a profile (contract: at most 3 decimals = whole fJ).
_SCALAR_PJ = ("icache_miss_pj", "dcache_miss_pj", "stall_cycle_pj", "idle_cycle_pj", "apb_access_pj",
              "sdram_read_word_pj", "sdram_write_word_pj")
PROFILE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "models",
                           "energy", "profiles")
COMPONENTS = ("core", "icache", "dcache", "ahb", "sdram", "static", "idle")
# A prediction at a run's own measured miss rates is within this fraction of
# the run's measured CPU-side energy (see the module docstring for why not 0).
SELF_TOLERANCE = 0.03

_ADDITIVE = ("cycles", "idle_cycles", "other_stall_cycles", "i_accesses", "d_accesses", "i_misses",
             "d_misses", "i_fill_cycles", "d_fill_cycles")
_CONSTANT = ("i_line_words", "d_line_words", "clock_hz")


class ProfileError(ValueError):
    """A profile that cannot be used (message names the file and key)."""


def _fj(pj):
    """pJ (at most 3 decimals) -> whole fJ, as leon3vp converts."""
    return int(round(pj * 1000))


def _number(prof, key, where):
    v = prof.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
        raise ProfileError(f"{where}: '{key}' must be a non-negative number")
    return v


def load_profile(name_or_path):
    """A profile dict from a path (anything with a '/' or ending in .json)
    or a shipped name (models/energy/profiles/NAME.json). Checks the keys
    this module uses; leon3vp validates the rest."""
    path = name_or_path
    if "/" not in path and not path.endswith(".json"):
        path = os.path.join(PROFILE_DIR, name_or_path + ".json")
    try:
        with open(path) as f:
            prof = json.load(f)
    except OSError as e:
        raise ProfileError(f"energy profile {name_or_path}: {e.strerror}") from None
    except ValueError as e:
        raise ProfileError(f"energy profile {path}: not JSON ({e})") from None
    check_profile(prof, path)
    return prof


def check_profile(prof, where="profile"):
    if not isinstance(prof, dict) or prof.get("format") != 1:
        raise ProfileError(f"{where}: 'format' must be 1")
    ipj = prof.get("instruction_pj")
    if not isinstance(ipj, dict):
        raise ProfileError(f"{where}: 'instruction_pj' must be an object")
    for c in CLASSES:
        _number(ipj, c, f"{where}: instruction_pj")
    for k in _SCALAR_PJ + ("static_mw",):
        _number(prof, k, where)
    ahb = prof.get("ahb_transfer_pj")
    if not isinstance(ahb, dict) or "default" not in ahb:
        raise ProfileError(f"{where}: 'ahb_transfer_pj' must be an object with 'default'")
    for k in ahb:
        _number(ahb, k, f"{where}: ahb_transfer_pj")
    return prof


def _line_words(stats, cache):
    cfg = stats.get("config", {}).get(cache, {})
    return cfg.get("line_bytes", 32 if cache == "icache" else 16) // 4


def mix_from_run(stats):
    """The mix of a whole run (--stats dict, timed mode): exact access counts."""
    t = stats["timing"]
    miss_stall = t["stalls"]["icache_miss"] + t["stalls"]["dcache_miss"]
    class_cycles = sum(t["class_cycles"].values())
    d = t["dcache"]
    return {
        "by_class": dict(stats["instructions"]["by_class"]),
        "cycles": stats["cycles"],
        "idle_cycles": stats["idle_cycles"],
        # the contract's stall cycles (annulled slots and trap entry included)
        # minus the miss stalls
        "other_stall_cycles": stats["cycles"] - stats["idle_cycles"] - class_cycles - miss_stall,
        "i_accesses": t["icache"]["hits"] + t["icache"]["misses"],
        "d_accesses": d["read_hits"] + d["read_misses"],
        "i_misses": t["icache"]["misses"],
        "d_misses": d["read_misses"],
        "i_fill_cycles": t["stalls"]["icache_miss"],
        "d_fill_cycles": t["stalls"]["dcache_miss"],
        "i_line_words": _line_words(stats, "icache"),
        "d_line_words": _line_words(stats, "dcache"),
        "clock_hz": stats["clock_hz"],
    }


def mix_from_regions(stats, ids):
    """The mix of the regions `ids` summed (--stats dict). Regions that never
    ran are skipped. Fetch accesses = retired instructions and D-cache read
    accesses = loads, unless the regions carry `icache_accesses` /
    `dcache_read_accesses`."""
    regs = {r["id"]: r for r in stats.get("regions", [])}
    mix = {k: 0 for k in _ADDITIVE}
    mix["by_class"] = {c: 0 for c in CLASSES}
    for i in ids:
        r = regs.get(i)
        if r is None:
            continue
        st = r["stalls"]
        for c in CLASSES:
            mix["by_class"][c] += r["by_class"].get(c, 0)
        mix["cycles"] += r["cycles"]
        mix["idle_cycles"] += r["idle_cycles"]
        mix["other_stall_cycles"] += sum(v for k, v in st.items() if k not in ("icache_miss", "dcache_miss"))
        mix["i_accesses"] += r.get("icache_accesses", r["instructions"])
        mix["d_accesses"] += r.get("dcache_read_accesses", r["by_class"].get("load", 0))
        mix["i_misses"] += r["icache_misses"]
        mix["d_misses"] += r["dcache_misses"]
        mix["i_fill_cycles"] += st["icache_miss"]
        mix["d_fill_cycles"] += st["dcache_miss"]
    mix["i_line_words"] = _line_words(stats, "icache")
    mix["d_line_words"] = _line_words(stats, "dcache")
    mix["clock_hz"] = stats["clock_hz"]
    return mix


def mix_sub(a, b):
    """a - b, count by count (the constants must agree)."""
    for k in _CONSTANT:
        if a[k] != b[k]:
            raise ValueError(f"mix_sub: different {k} ({a[k]} vs {b[k]})")
    out = {k: a[k] - b[k] for k in _ADDITIVE}
    out["by_class"] = {c: a["by_class"].get(c, 0) - b["by_class"].get(c, 0) for c in CLASSES}
    out.update({k: a[k] for k in _CONSTANT})
    return out


def mix_scale(mix, k):
    """Every count times k (e.g. 1 / datagrams: a mix per datagram, with
    fractional counts; the miss rates and cycles per fill stay the same)."""
    out = {key: mix[key] * k for key in _ADDITIVE}
    out["by_class"] = {c: v * k for c, v in mix["by_class"].items()}
    out.update({key: mix[key] for key in _CONSTANT})
    return out


def miss_rates(mix):
    """Measured (I-cache, D-cache read, combined) miss rates of a mix:
    combined = (I-misses + D-read-misses) / (I-accesses + D-read-accesses)."""
    def rate(m, a):
        return m / a if a else 0.0
    return (rate(mix["i_misses"], mix["i_accesses"]), rate(mix["d_misses"], mix["d_accesses"]),
            rate(mix["i_misses"] + mix["d_misses"], mix["i_accesses"] + mix["d_accesses"]))


def fill_cycles(mix):
    """Measured stall cycles per I- and D-cache line fill. Without a miss
    of one kind: the other cache's figure scaled by line words, or the
    template's 3 + words (miss overhead + one cycle per beat)."""
    ci = mix["i_fill_cycles"] / mix["i_misses"] if mix["i_misses"] else None
    cd = mix["d_fill_cycles"] / mix["d_misses"] if mix["d_misses"] else None
    wi, wd = mix["i_line_words"], mix["d_line_words"]
    if ci is None:
        ci = cd - wd + wi if cd is not None else 3 + wi
    if cd is None:
        cd = ci - wi + wd
    return ci, cd


def predict(mix, prof, miss_rate, cpu_master="leon3"):
    """Energy (fJ, float) and cycles the model predicts for `mix` at an
    assumed miss rate: a number (both caches) or a pair (I-cache, D-cache).
    Returns {"energy_fj", "cycles", "miss_rates": (mi, md), "by_component"}."""
    mi, md = (miss_rate, miss_rate) if isinstance(miss_rate, (int, float)) else miss_rate
    for m in (mi, md):
        if not 0.0 <= m <= 1.0:
            raise ValueError(f"miss rate {m} outside 0..1")
    ipj = prof["instruction_pj"]
    ci, cd = fill_cycles(mix)
    n_i = mi * mix["i_accesses"]
    n_d = md * mix["d_accesses"]
    fill = n_i * ci + n_d * cd
    cycles = mix["cycles"] - mix["i_fill_cycles"] - mix["d_fill_cycles"] + fill
    stalls = mix["other_stall_cycles"] + fill
    words = n_i * mix["i_line_words"] + n_d * mix["d_line_words"]
    stores = mix["by_class"].get("store", 0)
    ahb = prof["ahb_transfer_pj"]
    e_ahb = _fj(ahb.get(cpu_master, ahb["default"]))
    comp = {
        "core": sum(mix["by_class"].get(c, 0) * _fj(ipj[c]) for c in CLASSES)
                + stalls * _fj(prof["stall_cycle_pj"]),
        "icache": n_i * _fj(prof["icache_miss_pj"]),
        "dcache": n_d * _fj(prof["dcache_miss_pj"]),
        "ahb": (words + stores) * e_ahb,
        "sdram": words * _fj(prof["sdram_read_word_pj"]) + stores * _fj(prof["sdram_write_word_pj"]),
        # mW * s = 1e-3 J = 1e12 fJ
        "static": prof["static_mw"] * 1e12 * cycles / mix["clock_hz"],
        "idle": mix["idle_cycles"] * _fj(prof["idle_cycle_pj"]),
    }
    return {"energy_fj": sum(comp.values()), "cycles": cycles, "miss_rates": (mi, md),
            "by_component": comp}
