"""`python -m minitorch2 run --report`: the walkthrough of every compile, checked in headless Chromium.

A browser loads the reports of a small MLP training step and of a script with two graph breaks (and a
recompile): every compile has a section per stage, each with content; the pictures are SVG holding the
graph's node names; the page's script runs and the console stays silent. Screenshots are kept under the
test's tmp dir (the path is printed). Without Chromium (Debian: `apt-get install -y chromium`) these skip.
"""
import html
import html.parser
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed "
                                    "(Debian: apt-get install -y chromium); the report is not checked in a browser")

STAGES = ["source", "capture", "dynamo", "joint", "partition", "aot", "loop-ir", "kernels", "timings"]

MLP_STEP = """
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)


    @torch.compile
    def step(x, y):
        return ((model(x) - y) ** 2).mean()


    loss = step(torch.randn(3, 4), torch.randn(3, 2))
    loss.backward()
    opt.step()
    print(round(loss.item(), 4))
"""

TWO_BREAKS = """
    import torch


    def f(x):
        y = torch.sin(x) * 2
        print("first break")
        y = y + 1
        print("second break")
        return torch.relu(y).sum()


    g = torch.compile(f)
    g(torch.randn(4, requires_grad=True)).backward()
    g(torch.randn(5, requires_grad=True)).backward()
"""


def _report(tmp_path, source, name):
    script, page = tmp_path / f"{name}.py", tmp_path / f"{name}.html"
    script.write_text(textwrap.dedent(source))
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--report", str(page), str(script)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return page


def _browse(page, screenshot):
    """(the DOM after the page's scripts ran, the console messages) from headless Chromium."""
    result = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                             "--v=0", "--window-size=1400,2400", f"--screenshot={screenshot}", "--dump-dom",
                             page.as_uri()], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout, console_messages(result.stderr)


def console_messages(chromium_log):
    """The page's console lines in Chromium's log (`...:INFO:CONSOLE:12] "message", source: ...`)."""
    return [line for line in chromium_log.splitlines() if re.search(r":CONSOLE(:|\()", line)]


class Page(html.parser.HTMLParser):
    """Per compile section: each stage's text, and each picture's node names and text."""

    def __init__(self, dom):
        super().__init__()
        self.compiles, self.pictures, self.stack, self.body = [], [], [], {}
        self.feed(dom)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "body":
            self.body = attrs
        if tag == "section" and "compile" in classes:
            self.compiles.append({"id": attrs["data-compile"], "stages": {}, "pictures": []})
        elif tag == "section" and "stage" in classes:
            self.compiles[-1]["stages"][attrs["data-stage"]] = []
            self.stage = attrs["data-stage"]
        elif tag == "svg":
            picture = {"label": attrs.get("aria-label"), "nodes": [], "stage": getattr(self, "stage", None)}
            self.pictures.append(picture)
            if self.compiles:
                self.compiles[-1]["pictures"].append(picture)
        elif tag == "g" and "node" in classes:
            self.pictures[-1]["nodes"].append(attrs["data-node"])

    def handle_data(self, data):
        if self.compiles and getattr(self, "stage", None) in self.compiles[-1]["stages"]:
            self.compiles[-1]["stages"][self.stage].append(data)


def _check_page(page, tmp_path, capsys):
    screenshot = tmp_path / (page.stem + ".png")
    dom, console = _browse(page, screenshot)
    with capsys.disabled():
        print(f"\n  screenshot of {page.name}: {screenshot}")
    assert console == []
    parsed = Page(dom)
    assert parsed.body.get("data-script") == "ran"  # the page's script ran to its end
    assert screenshot.stat().st_size > 10_000
    for compile_section in parsed.compiles:
        assert list(compile_section["stages"]) == STAGES, compile_section["id"]
        for stage, texts in compile_section["stages"].items():
            assert len("".join(texts).strip()) > 80, (compile_section["id"], stage)
        pictures = compile_section["pictures"]
        assert {p["stage"] for p in pictures} == {"dynamo", "partition", "loop-ir"}
        assert all(p["nodes"] for p in pictures)
    return parsed, dom


def _graph_names(code):
    """The node names a printed graph assigns (`l_x_ = L_x_`, `relu: "f32[3]" = ...`): its inputs and calls."""
    return re.findall(r'^\s+(\w+)(?:: "[^"]*")? = ', code, re.M)


@pytest.mark.slow  # a compile in a subprocess, then a browser: about 10 s on an idle machine
@needs_chromium
def test_the_report_of_an_mlp_training_step_in_a_browser(tmp_path, capsys):
    page = _report(tmp_path, MLP_STEP, "mlp_step")
    parsed, dom = _check_page(page, tmp_path, capsys)
    assert [c["id"] for c in parsed.compiles] == ["0/0"]
    stages = {k: "".join(v) for k, v in parsed.compiles[0]["stages"].items()}
    dynamo_picture, *cuts, forward, backward = parsed.compiles[0]["pictures"]
    printed = re.search(r"<section class=\"stage\" data-stage=\"dynamo\">.*?<pre>(.*?)</pre>", dom, re.S).group(1)
    assert set(dynamo_picture["nodes"]) == set(_graph_names(html_unescape(printed)))
    # inductor's own cut (joint-graph passes, parameters known to live anyway) matches neither: drawn third
    assert [c["label"].split(":")[0] for c in cuts] == ["default partition", "min-cut partition", "cut that ran"]
    for picture in cuts:
        assert {"primals_1", "tangents_1", "relu", "addmm", "mm"} <= set(picture["nodes"])
    assert "relu" in forward["nodes"] and "mm" in backward["nodes"]
    assert "primals, the forward's own inputs (6 here)" in stages["joint"]
    assert "extern call" in stages["loop-ir"] and "kernel0" in stages["kernels"]
    assert "@triton.jit" in stages["kernels"] and "define void @kernel0" in stages["kernels"]


@pytest.mark.slow
@needs_chromium
def test_the_report_of_two_graph_breaks_and_a_recompile_in_a_browser(tmp_path, capsys):
    page = _report(tmp_path, TWO_BREAKS, "two_breaks")
    parsed, _ = _check_page(page, tmp_path, capsys)
    assert [c["id"] for c in parsed.compiles] == ["0/0", "1/0", "2/0", "0/1", "1/1", "2/1"]
    captures = ["".join(c["stages"]["capture"]) for c in parsed.compiles]
    assert "Graph break at " in captures[0] and "two_breaks.py:7: print() is a side effect." in captures[0]
    assert "runs in torch_dynamo_resume_in_f_at_7, compiled as its own frame (compile 1/0)" in captures[0]
    assert "two_breaks.py:9: print() is a side effect." in captures[1]
    assert "Graph break" not in captures[2]
    assert "This is a recompile" in captures[3] and "size mismatch at index 0. expected 4, actual 5" in captures[3]


def html_unescape(text):
    return html.unescape(text)


# ---- without a browser ---------------------------------------------------------------------------

def test_the_report_of_seed_000_shows_its_three_graphs_and_the_cut(tmp_path):
    page = tmp_path / "seed000.html"
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--report", str(page),
                             os.path.join(ROOT, "tests", "seeds", "seed000_three_graphs.py")],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    parsed, text = Page(page.read_text()), page.read_text()
    (compile_section,) = parsed.compiles
    stages = {k: html.unescape("".join(v)) for k, v in compile_section["stages"].items()}
    # the three graphs: what the frontend handed the backend, the aot forward and the aot backward
    assert "__compiled_fn_1 is what a backend receives: 3 inputs" in stages["dynamo"]
    assert "torch.relu(" in stages["dynamo"] or "relu" in stages["dynamo"]
    assert "Forward graph 0" in stages["aot"] and "Backward graph 0" in stages["aot"]
    assert "torch.ops.aten.threshold_backward.default" in stages["aot"]
    # the cut: both partitions drawn side by side, the saved value's arrows red, its bytes stated
    cuts = [p for p in compile_section["pictures"] if p["stage"] == "partition"]
    assert [p["label"].split(":")[0] for p in cuts] == ["default partition", "min-cut partition"]
    assert all({"primals_1", "primals_3", "tangents_1", "relu", "threshold_backward"} <= set(p["nodes"])
               for p in cuts)
    assert 'stroke="#d62728" stroke-width="2.5"' in text
    assert "The default partition saves every forward value the backward reads: 2 tensors, 56 bytes." in \
        stages["partition"]
    assert "This compile ran the default partition" in stages["partition"]
    assert "This backend compiled no kernels" in stages["loop-ir"]


def test_a_report_path_that_cannot_be_written_ends_the_run_before_the_script(tmp_path):
    script = tmp_path / "script.py"
    script.write_text("print('the script ran')\n")
    bad = tmp_path / "no_such_folder" / "out.html"
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--report", str(bad), str(script)],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"python -m minitorch2 run: cannot write the report to '{bad}': "
                             f"No such file or directory\n")


def test_console_messages_are_found_in_chromiums_log():
    log = ('[1:1:1203/175246.217260:ERROR:dbus/bus.cc:405] Failed to connect to the bus\n'
           '[1:1:1203/175246.219237:INFO:CONSOLE:1] "Uncaught ReferenceError: f is not defined", source: x (1)\n')
    assert console_messages(log) == [log.splitlines()[1]]
