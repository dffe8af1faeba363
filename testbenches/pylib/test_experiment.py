"""Pure-Python units of scripts/lib/l3vp/experiment (no leon3vp run): the
grid, placeholders, scenario patches, metric paths, variant names, FNV."""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from l3vp.experiment import firmware, metrics, spec  # noqa: E402

SCEN = {"duration": "1s", "experiments": [{"name": "a", "type": "ping", "size": 1},
                                           {"name": "b", "type": "ping", "size": "{size}B"}]}


def exp(**kw):
    doc = {"experiment": "t", "firmware": {"program": "net_ping"}, "metrics": {"c": "stats.cycles"}}
    doc.update(kw)
    return spec.Experiment("/tmp/t.yaml", doc)


def test_grid_product_order_and_zip():
    e = exp(firmware={"program": "net_ping", "params": {"window": "{w}", "count": "{n}", "bytes": "{m}"}},
            grid={"w": [100, 500], "n": [1, 2, 3]}, zip=[{"m": [10, 20], "k": ["x", "y"]}],
            board={"set": {"dcache.way_kib": "{k}"}})
    runs = e.runs()
    assert len(runs) == 2 * 3 * 2
    assert [r.params["n"] for r in runs[:4]] == [1, 1, 2, 2]        # the last axis runs fastest
    assert runs[1].params == {"w": 100, "n": 1, "m": 20, "k": "y"}   # zipped values stay paired
    assert runs[1].firmware["params"] == {"window": 100, "count": 1, "bytes": 20}
    assert [r.index for r in runs] == list(range(12))


def test_fill_keeps_types_and_formats_strings():
    e = exp(network={"scenario": SCEN, "patch": {"experiments.a.size": "{size}", "duration": "{size}ms"}},
            grid={"size": [64]})
    scen = e.runs()[0].network["scenario"]
    assert scen["experiments"][0]["size"] == 64          # "{size}" alone: the number
    assert scen["experiments"][1]["size"] == "64B"       # inside a string: formatted
    assert scen["duration"] == "64ms"
    assert SCEN["experiments"][1]["size"] == "{size}B"  # the template is not modified


@pytest.mark.parametrize("kw, where", [
    ({"grid": {"x": [1]}}, "grid.x"),
    ({"firmware": {"program": "p", "params": {"a": "{y}"}}}, "firmware.params"),
    ({"grid": {"x": [1, 1]}, "firmware": {"program": "p", "params": {"a": "{x}"}}}, "grid.x"),
    ({"board": {"mode": "fast"}}, "board.mode"),
    ({"metrics": {"c": {"path": "stats.cycles", "scale": "x"}}}, "metrics.c.scale"),
    ({"network": {"scenario": SCEN, "patch": {"experiments.zz.size": 1}}}, "network.patch.experiments.zz.size"),
    ({"firmware": {"program": "p", "params": {"a": "{x"}}}, "firmware.params.a"),
])
def test_bad_specs_name_the_key(kw, where):
    with pytest.raises(spec.SpecError) as ei:
        exp(**kw)
    assert str(ei.value).startswith(where + ":")
    assert "\n" not in str(ei.value)


def test_metric_paths():
    res = {"stats": {"cycles": 10, "regions": [{"id": 0x50480001, "cycles": 7}]},
           "net": {"experiments": [{"name": "ping", "rtt_avg_ps": 149115000}]},
           "uart_lines": [{"type": "phases", "rx": 3}, {"type": "phases", "rx": 4}]}
    ms = [spec.Metric("a", "stats.regions.0x50480001.cycles"), spec.Metric("b", "net.experiments.ping.rtt_avg_ps",
                                                                            1e-6),
          spec.Metric("c", "uart.phases.1.rx"), spec.Metric("d", "stats.nope", optional=True)]
    assert metrics.extract(ms, res) == {"a": 7, "b": 149.115, "c": 4, "d": None}
    with pytest.raises(metrics.MetricError, match="stats.regions.7"):
        metrics.extract([spec.Metric("x", "stats.regions.7.cycles")], res)
    with pytest.raises(metrics.MetricError, match="object"):
        metrics.extract([spec.Metric("x", "stats.regions.0")], res)


def test_variants_and_hash():
    assert firmware.variant_name({}) == "default"
    assert firmware.variant_name({"NET_PHASES": False, "NET_CHECKSUM": "word32"}) == \
        "NET_CHECKSUM=word32,NET_PHASES=OFF"
    assert firmware.variant_dir("/r", {"NET_PHASES": False}) == firmware.variant_dir("/r", {"NET_PHASES": "OFF"})
    opts = firmware.known_options()
    assert opts["NET_CHECKSUM"] == ["generic8", "word32", "fast", "hw"] and opts["NET_PHASES"] == ["ON", "OFF"]
    with pytest.raises(ValueError, match="NET_ZERO_COPY"):
        firmware.check_options({"NET_ZERO_COPY": "maybe"})
    # FNV-1a-64 reference values (the empty input is the offset basis)
    assert firmware.fnv1a64(b"") == "cbf29ce484222325"
    assert firmware.fnv1a64(b"a") == "af63dc4c8601ec8c"


def test_metric_sum_per():
    """sum adds paths, per divides by a count, scale after; exact decimals."""
    res = {"uart_lines": [{"type": "phases", "driver": 130.0, "proto": 300.5, "ipchk": 56.5},
                          {"type": "result", "sent": 10, "zero": 0}]}
    m = spec.Metric("t", "x", paths=["uart.phases.0.proto", "uart.phases.0.ipchk"], per="uart.result.0.sent")
    assert metrics.extract([m], res) == {"t": 35.7}
    m = spec.Metric("t", "uart.phases.0.driver", scale=1000, per="uart.result.0.sent")
    assert metrics.extract([m], res) == {"t": 13000.0}
    m = spec.Metric("t", "uart.phases.0.driver", per="uart.result.0.zero")
    assert metrics.extract([m], res) == {"t": None}
    with pytest.raises(metrics.MetricError, match="uart.result.0.nope"):
        metrics.extract([spec.Metric("t", "uart.phases.0.driver", per="uart.result.0.nope")], res)


def test_metric_sum_spec():
    doc = {"experiment": "t", "firmware": {"program": "net_ping"},
           "metrics": {"a": {"sum": ["stats.cycles", "stats.instructions.total"], "per": "net.x"}}}
    exp = spec.Experiment("/tmp/t.yaml", doc)
    assert exp.metrics[0].paths == ["stats.cycles", "stats.instructions.total"] and exp.metrics[0].per == "net.x"
    for bad, where in (({"path": "stats.a", "sum": ["stats.b"]}, "exactly one"), ({"sum": []}, "metrics.a.sum"),
                       ({"sum": ["foo.b"]}, r"metrics.a.sum\[0\]"), ({"path": "stats.a", "per": "x"}, "metrics.a.per")):
        doc["metrics"] = {"a": bad}
        with pytest.raises(spec.SpecError, match=where):
            spec.Experiment("/tmp/t.yaml", doc)
