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


# -- any ELF, out-of-tree projects, templated programs -------------
def fw_exp(fw, **kw):
    doc = {"experiment": "t", "firmware": fw, "metrics": {"c": "stats.cycles"}}
    doc.update(kw)
    return spec.Experiment("/data/exp/t.yaml", doc)


def test_elf_paths_resolve_and_template(monkeypatch):
    monkeypatch.setenv("L3VP_TEST_FW", "/opt/fw")
    monkeypatch.setenv("HOME", "/home/me")
    cases = {"own.elf": "/data/exp/own.elf", "../b/own.elf": "/data/b/own.elf", "/abs/x.elf": "/abs/x.elf",
             "~/fw/a.elf": "/home/me/fw/a.elf", "$L3VP_TEST_FW/b": "/opt/fw/b"}
    for given, want in cases.items():
        run = fw_exp({"elf": given}).runs()[0]
        assert run.firmware["elf"] == want and run.firmware["program"] == os.path.basename(want).replace(".elf", "")
    runs = fw_exp({"elf": "build-{v}/app.elf"}, grid={"v": ["a", "b"]}).runs()
    assert [r.firmware["elf"] for r in runs] == ["/data/exp/build-a/app.elf", "/data/exp/build-b/app.elf"]


def test_program_template_switches_programs():
    runs = fw_exp({"program": "{stack}_ping"}, grid={"stack": ["net", "lwip"]}).runs()
    assert [r.firmware["program"] for r in runs] == ["net_ping", "lwip_ping"]
    with pytest.raises(spec.SpecError, match="firmware.program: 'a b_ping' .from the grid"):
        fw_exp({"program": "{stack}_ping"}, grid={"stack": ["a b"]}).runs()


@pytest.mark.parametrize("fw, where", [
    ({"elf": "a.elf", "build": {"NET_PHASES": "OFF"}}, "firmware.build: makes no sense with elf"),
    ({"elf": "a.elf", "cmake": "."}, "firmware.cmake: makes no sense with elf"),
    ({"elf": "a.elf", "program": "net_ping"}, "firmware: needs exactly one"),
    ({"params": {}}, "firmware: needs exactly one"),
    ({"elf": ""}, "firmware.elf: must be"),
    ({"program": "x/y"}, "firmware.program: must be"),
    ({"program": "own", "cmake": "/nonexistent-dir"}, "firmware.cmake: /nonexistent-dir: no CMakeLists.txt"),
])
def test_bad_firmware_sections(fw, where):
    with pytest.raises(spec.SpecError) as ei:
        fw_exp(fw)
    assert str(ei.value).startswith(where) and "\n" not in str(ei.value)


def test_check_elf(tmp_path):
    text = tmp_path / "notes.elf"
    text.write_text("not an ELF\n")
    for path, words in ((str(tmp_path / "missing.elf"), "No such file"), (str(text), "not an ELF"),
                        (str(tmp_path), "directory"), (sys.executable, "not 32-bit big-endian SPARC")):
        with pytest.raises(ValueError) as ei:
            firmware.check_elf(path)
        assert str(ei.value).startswith(path + ":") and words in str(ei.value) and "\n" not in str(ei.value)


def test_out_of_tree_options(tmp_path):
    (tmp_path / "CMakeLists.txt").write_text(
        'option(OWN_FAST "fast path" OFF)\nset(OWN_MODE a CACHE STRING "mode")\n'
        'set_property(CACHE OWN_MODE PROPERTY STRINGS a b)\n')
    assert firmware.known_options(str(tmp_path)) == {"OWN_FAST": ["ON", "OFF"], "OWN_MODE": ["a", "b"]}
    firmware.check_options({"OWN_FAST": True, "OWN_MODE": "b"}, src=str(tmp_path))
    with pytest.raises(ValueError, match="firmware.build.NET_PHASES: not a CMake option of"):
        firmware.check_options({"NET_PHASES": "ON"}, src=str(tmp_path))
    with pytest.raises(ValueError, match="OWN_MODE: 'c' is not one of a, b"):
        firmware.check_options({"OWN_MODE": "c"}, src=str(tmp_path))
    # its variants build beside ours, never in our variant directories
    root = firmware.project_root("/out/fw", str(tmp_path))
    assert root.startswith("/out/fw/ext-") and root != firmware.variant_dir("/out/fw", {})


# -- diff metrics and schema checks -------------------------------------------
def test_diff_metric_spec():
    e = exp(firmware={"program": "net_ping", "params": {"count": "{count}", "s": "{size}"}},
            grid={"count": [10, 20], "size": [64]},
            metrics={"per_echo": {"path": "stats.cycles", "diff": {"count": [20, 10]}, "per": 10}})
    m = e.metrics[0]
    assert m.diff == ("count", 20, 10) and m.per == 10 and m.per_path is None
    base = {"experiment": "t", "firmware": {"program": "p", "params": {"a": "{count}", "b": "{x}", "c": "{y}"}},
            "grid": {"count": [10, 20]}, "zip": [{"x": [1, 2], "y": [3, 4]}]}
    for bad, where in (({"count": [20, 30]}, "30 is not a value of axis count"),
                       ({"count": [20, 20]}, "two different values"),
                       ({"count": [20]}, "two different values"),
                       ({"nope": [1, 2]}, "metrics.d.diff.nope: not an axis"),
                       ({"x": [1, 2]}, "metrics.d.diff.x: part of a zip group"),
                       ([20, 10], "metrics.d.diff: must be")):
        doc = dict(base, metrics={"d": {"path": "stats.cycles", "diff": bad}})
        with pytest.raises(spec.SpecError, match=where):
            spec.Experiment("/tmp/t.yaml", doc)
    with pytest.raises(spec.SpecError, match="metrics.d.per: must not be 0"):
        spec.Experiment("/tmp/t.yaml", dict(base, metrics={"d": {"path": "stats.cycles", "per": 0}}))


def test_diff_values_pair_runs():
    """(v(count=20) - v(count=10)) / per, per size; the count=10 rows and a
    row without its partner stay empty."""
    def run(cycles, echoed):
        return {"stats": {"cycles": cycles}, "uart_lines": [{"type": "result", "echoed": echoed}]}

    grid = [({"size": 64, "count": 10}, run(1000, 10)), ({"size": 64, "count": 20}, run(1750, 20)),
            ({"size": 512, "count": 10}, run(3000, 10)), ({"size": 512, "count": 20}, run(5001, 20)),
            ({"size": 1024, "count": 20}, run(9000, 20))]
    by_num = spec.Metric("d", "stats.cycles", per=10, diff=("count", 20, 10))
    by_path = spec.Metric("d", "stats.cycles", per="uart.result.0.echoed", scale=2, diff=("count", 20, 10))
    for m, want in ((by_num, [None, 75.0, None, 200.1, None]), (by_path, [None, 150.0, None, 400.2, None])):
        rows = [(p, metrics.terms(m, metrics.sources(r))) for p, r in grid]
        assert metrics.diff_values(m, rows) == want
        assert metrics.extract([m], grid[1][1]) == {"d": None}  # one run alone has no value
    with pytest.raises(metrics.MetricError, match="metric d: stats.nope: no stats.nope"):
        metrics.extract([spec.Metric("d", "stats.nope", diff=("count", 20, 10))], grid[0][1])


def test_metric_per_number():
    m = spec.Metric("t", "stats.cycles", per=4, scale=0.5)
    assert metrics.extract([m], {"stats": {"cycles": 10}}) == {"t": 1.25}


def test_stats_schema_paths():
    keys = [[k, t] for key, t in (("cycles", "int"), ("timing.icache.{hits,misses}", "int"),
                                  ("regions", "array"), ("regions[].cycles", "int"), ("config", "object"))
            for k in metrics.expand_schema_key(key)]
    assert ["timing.icache.hits", "int"] in keys and ["regions.*.cycles", "int"] in keys
    good = ["cycles", "timing.icache", "timing.icache.misses", "regions.0x50480001.cycles", "config.dcache.ways"]
    bad = ["cycle", "cycles.total", "timing.icache.miss", "regions.0x50480001.cycle", "regions.0.cycles.x"]
    assert [p for p in good if not metrics.in_schema(p, keys)] == []
    assert [p for p in bad if metrics.in_schema(p, keys)] == []


# -- hostile input files -------------------------------------------
def _one_line_error(path_or_exp, *words):
    with pytest.raises(spec.SpecError) as ei:
        spec.load(path_or_exp) if isinstance(path_or_exp, str) else exp(**path_or_exp)
    msg = str(ei.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg
    return msg


def test_input_files_regular_small_utf8(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    _one_line_error(str(fifo), "not a regular file")          # no hang
    _one_line_error("/dev/zero", "not a regular file")
    _one_line_error(str(tmp_path), "not a regular file")
    (tmp_path / "bin.yaml").write_bytes(b"experiment: x\n\xff\xfe\x00")
    _one_line_error(str(tmp_path / "bin.yaml"), "not UTF-8")
    (tmp_path / "big.yaml").write_text("#" * (spec.MAX_FILE_BYTES + 1))
    _one_line_error(str(tmp_path / "big.yaml"), "larger than")


def test_scenario_file_is_an_input_file(tmp_path):
    fifo = tmp_path / "s.json"
    os.mkfifo(fifo)
    (tmp_path / "deep.json").write_text('{"a":' * 5000 + "1" + "}" * 5000)
    for name, word in (("s.json", "not a regular file"), ("/dev/zero", "not a regular file"),
                       ("deep.json", "nested deeper")):
        f = tmp_path / "e.yaml"
        f.write_text("experiment: x\nfirmware: {program: net_ping}\nnetwork: {scenario: %s}\n"
                     "metrics: {c: stats.cycles}\n" % name)
        _one_line_error(str(f), "network.scenario", word)


def test_yaml_alias_bomb_and_depth(tmp_path):
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for prev, cur in zip("abcdefg", "bcdefgh"):
        lines.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 10) + "]")
    (tmp_path / "bomb.yaml").write_text("\n".join(lines) + "\n")
    _one_line_error(str(tmp_path / "bomb.yaml"), "aliases")
    (tmp_path / "deep.yaml").write_text("experiment: x\nfirmware: " + "[" * 5000 + "]" * 5000 + "\n")
    _one_line_error(str(tmp_path / "deep.yaml"), "nested deeper")
    # a few anchors (as the shipped files use) stay fine
    (tmp_path / "ok.yaml").write_text("experiment: x\nfirmware: &f {program: hello}\n"
                                      "metrics: {c: stats.cycles}\ntables: {t: {x: *f}}\n")
    assert spec.load(str(tmp_path / "ok.yaml")).fw["program"] == "hello"


def test_grid_counted_before_expansion():
    grid = {f"a{i}": list(range(100)) for i in range(6)}
    params = {f"p{i}": f"{{a{i}}}" for i in range(6)}
    msg = _one_line_error({"grid": grid, "firmware": {"program": "p", "params": params}}, "grid", str(100 ** 6))
    assert "limit" in msg
    # a zip group counts once: 200 x 300 = 60000 points, not 200 x 300 x 300
    e = exp(grid={"a": list(range(200))}, zip=[{"b": list(range(300)), "d": list(range(300))}],
            firmware={"program": "p", "params": {"x": "{a}", "y": "{b}", "z": "{d}"}})
    assert len(e.axes) == 2


@pytest.mark.parametrize("text,axis,words", [
    ("{size:>99999999999999999999}", [64], ["width"]),
    ("{size:>999999999}", [64], ["width"]),
    ("{size:d}", ["a", "b"], ["cannot format", "'a'"]),
    ("{size!z}", [64], ["conversion"]),
    ("{size:{w}}", [64], ["cannot format"]),
])
def test_placeholder_formats_checked(text, axis, words):
    _one_line_error({"grid": {"size": axis}, "firmware": {"program": "p", "params": {"n": text}}},
                    "firmware.params.n", "{size", *words)


def test_placeholder_formats_that_work():
    e = exp(grid={"size": [64, 1472]}, firmware={"program": "p", "params": {"n": "{size:05d}", "m": "{size!r}"}})
    assert e.runs()[0].firmware["params"] == {"n": "00064", "m": "64"}


@pytest.mark.parametrize("t", [float("inf"), float("nan"), -1.0, 0])
def test_timeout_finite_positive(t):
    _one_line_error({"board": {"timeout": t}}, "board.timeout")


def test_main_internal_error_and_sigterm(monkeypatch, capsys):
    import signal
    from l3vp.experiment import cli
    old = signal.getsignal(signal.SIGTERM)
    try:
        monkeypatch.setattr(cli, "_main", lambda argv: 1 / 0)
        assert cli.main([]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "internal error" in err[0] and "report" in err[0]

        def term(argv):
            os.kill(os.getpid(), signal.SIGTERM)
            raise AssertionError("SIGTERM not delivered")
        monkeypatch.setattr(cli, "_main", term)
        assert cli.main([]) == 143
        err = capsys.readouterr().err.strip().splitlines()
        assert err == ["experiment: terminated (SIGTERM)"]
    finally:
        signal.signal(signal.SIGTERM, old)
        cli._SIGNAL["got"] = None


def test_out_under_a_file(tmp_path, capsys):
    from l3vp.experiment import cli
    (tmp_path / "file").write_text("")
    (tmp_path / "e.yaml").write_text("experiment: x\nfirmware: {program: hello}\nmetrics: {c: stats.cycles}\n")
    rc = cli.main(["run", str(tmp_path / "e.yaml"), "--out", str(tmp_path / "file" / "o"), "--vp", "/bin/true"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "--out" in err[0], err


@pytest.mark.parametrize("text,word", [('{"static_mw": 1e400}', "not finite"), ("[1]", "JSON object"),
                                       ("{", "not JSON"), ('{"format": 1}', "instruction_pj"),
                                       ('{"format": 2}', "format")])
def test_energy_file_checked(tmp_path, text, word):
    from l3vp.experiment import cli
    (tmp_path / "e.json").write_text(text)
    e = spec.Experiment(str(tmp_path / "t.yaml"), {"experiment": "t", "firmware": {"program": "hello"},
                                                   "board": {"energy": "e.json"}, "metrics": {"c": "stats.cycles"}})
    with pytest.raises(spec.SpecError) as ei:
        cli._energy(e.runs()[0], e)
    assert str(ei.value).startswith("board.energy: e.json:") and word in str(ei.value)


def test_energy_file_not_a_fifo(tmp_path):
    from l3vp.experiment import cli
    os.mkfifo(tmp_path / "e.json")
    e = spec.Experiment(str(tmp_path / "t.yaml"), {"experiment": "t", "firmware": {"program": "hello"},
                                                   "board": {"energy": "e.json"}, "metrics": {"c": "stats.cycles"}})
    with pytest.raises(spec.SpecError, match="not a regular file"):
        cli._energy(e.runs()[0], e)


def test_report_inputs_are_input_files(tmp_path, capsys):
    from l3vp.experiment import cli
    os.mkfifo(tmp_path / "pub.yaml")
    os.mkdir(tmp_path / "d")
    os.mkfifo(tmp_path / "d" / "experiment.yaml")
    assert cli.main(["report", str(tmp_path / "d"), "--out", str(tmp_path / "r.md")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a regular file" in err[0], err
    from l3vp.experiment import report
    with pytest.raises(report.ReportError, match="--published .*pub.yaml: not a regular file"):
        report.load_published(str(tmp_path / "pub.yaml"))


@pytest.mark.parametrize("kw", [{"board": {"max_time": "10"}}, {"board": {"max_time": "0s"}},
                                {"board": {"max_time": ""}}, {"board": {"max_time": "1h"}},
                                {"board": {"max_time": "{t}"}, "grid": {"t": ["1s", "inf"]}},
                                {"board": {"max_time": "{t}"}, "grid": {"t": [5]}}])
def test_max_time_is_a_positive_duration(kw):
    with pytest.raises(spec.SpecError, match="^board.max_time: "):
        exp(**kw).runs()


def test_max_time_good():
    assert exp(board={"max_time": "{t}ms"}, grid={"t": [1, 2.5]}).runs()[1].board["max_time"] == "2.5ms"
    assert exp(board={"max_time": "1e3s"}).runs()[0].board["max_time"] == "1e3s"


def test_energy_file_shipped_profile_accepted(tmp_path):
    import shutil
    from l3vp import energy
    from l3vp.experiment import cli
    shutil.copy(os.path.join(energy.PROFILE_DIR, "flat.json"), tmp_path / "e.json")
    e = spec.Experiment(str(tmp_path / "t.yaml"), {"experiment": "t", "firmware": {"program": "hello"},
                                                   "board": {"energy": "e.json"}, "metrics": {"c": "stats.cycles"}})
    name, data = cli._energy(e.runs()[0], e)
    assert name == "e.json" and data == (tmp_path / "e.json").read_bytes()


def test_closed_stdout_is_quiet(tmp_path):
    import subprocess
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "experiment")
    f = tmp_path / "e.yaml"
    f.write_text("experiment: x\nfirmware: {program: net_ping, params: {count: '{n}'}}\n"
                 "grid: {n: %s}\nmetrics: {c: stats.cycles}\n" % list(range(1, 20001)))
    p = subprocess.Popen([sys.executable, tool, "list", str(f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()                      # like `| head -1`
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 141 and err == "", err


def test_variant_follows_a_changed_option_default(tmp_path):
    """A variant directory configured when an option's default was OFF is
    reconfigured when the project's CMake files change, so a variant that
    leaves the option out gets today's default, not the cached one."""
    src = tmp_path / "proj"
    src.mkdir()

    def project(default):
        (src / "CMakeLists.txt").write_text(
            "cmake_minimum_required(VERSION 3.16)\nproject(p NONE)\n"
            f'option(OWN_FAST "fast path" {default})\n'
            "add_custom_target(prog ALL COMMAND ${CMAKE_COMMAND} -E echo_append ${OWN_FAST} > "
            "${CMAKE_BINARY_DIR}/prog.elf VERBATIM)\n")

    project("OFF")
    elf = firmware.build_program(str(tmp_path / "fw"), {}, "prog", src=str(src))
    assert open(elf).read() == "OFF"
    project("ON")
    elf = firmware.build_program(str(tmp_path / "fw"), {}, "prog", src=str(src))
    assert open(elf).read() == "ON"
    # an option given by the variant still wins
    elf = firmware.build_program(str(tmp_path / "fw"), {"OWN_FAST": False}, "prog", src=str(src))
    assert open(elf).read() == "OFF"


def test_named_build_dir_follows_the_options_it_is_given(tmp_path):
    """build_in (scripts/hot-layout, board-net.tcprx): a directory the caller
    names, configured earlier with other values of the options, is
    configured afresh, and several programs are built in one call."""
    src = tmp_path / "proj"
    src.mkdir()
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\nproject(p NONE)\n"
        'option(OWN_FAST "fast path" OFF)\n'
        "foreach(t a b)\n"
        "  add_custom_target(${t} ALL COMMAND ${CMAKE_COMMAND} -E echo_append ${t}${OWN_FAST} > "
        "${CMAKE_BINARY_DIR}/${t}.elf VERBATIM)\n"
        "endforeach()\n")
    d = str(tmp_path / "named")
    a, b = firmware.build_in(d, {"OWN_FAST": True}, ["a", "b"], src=str(src))
    assert (open(a).read(), open(b).read()) == ("aON", "bON")
    a, = firmware.build_in(d, {"OWN_FAST": False}, ["a"], src=str(src))
    assert open(a).read() == "aOFF"
    assert firmware.cached_options(d)["OWN_FAST"] == "OFF"
    with pytest.raises(firmware.BuildError, match="building nosuch failed"):
        firmware.build_in(d, {"OWN_FAST": False}, ["nosuch"], src=str(src))


def test_load_table_keeps_text_columns_that_look_like_numbers(tmp_path):
    # A commit such as 99556e8 reads as the float 9.9556e12 unless the text
    # columns are read as text (a clean clone at such a commit failed
    # experiments.local_sweep that way).
    from l3vp.experiment import load_table

    cols = ",".join(spec.FIXED_COLUMNS)
    (tmp_path / "results.csv").write_text(
        cols + "\n" + "0001,net_ping,default,timed,,0,,1000,99556e8,12345,0e10\n")
    df = load_table(str(tmp_path))
    assert df["leon3vp_version"][0] == "99556e8"
    assert df["config_hash"][0] == "12345"
    assert df["firmware_hash"][0] == "0e10"
    assert df["run_id"][0] == "0001"
    assert df["sim_time_ps"][0] == 1000
