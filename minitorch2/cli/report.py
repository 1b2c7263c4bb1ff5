"""`python -m minitorch2 run --report OUT.html`: one self-contained HTML page of a run, a walkthrough of its compiles.

CLI layer, used by run.py. The page holds, in this order: the command and exit status; with --compare-torch
the comparison; the walkthrough the child wrote (report_stages.py: every compile, stage by stage, narrated,
with pictures as inline SVG); what the script printed (stdout, stderr less the log lines); the log records the
user asked for (MINITORCH2_LOGS, --show); with --compare-torch torch's own output. Nothing comes from
elsewhere: one style block, one small script (pointing at a node lights it up in every picture of its compile),
no fonts or images to fetch, so the file opens offline. Every piece of text goes through html.escape.
"""
import html
import shlex

from .compare import LAYERS, format_report, log_records, without_artifacts

_STYLE = """body { font-family: sans-serif; margin: 1.5em; max-width: 110em; line-height: 1.4; }
pre { background: #f4f4f4; padding: 0.6em; overflow: auto; font-size: 0.85em; max-height: 40em; }
summary { cursor: pointer; }
.same { color: #176317; } .differs { color: #a31515; }
section.compile { border-top: 3px solid #335; margin-top: 2em; }
section.stage { margin-left: 1em; }
p.narration { max-width: 60em; } p.error { color: #a31515; }
.modules { font-size: 0.85em; color: #555; }
pre.source .line { display: block; } pre.source .lineno { color: #999; }
pre.source .made-nodes { background: #e3efd9; } pre.source .graph-break { background: #f8d7d3; }
.graph-break-reason { color: #a31515; }
.side-by-side { display: flex; gap: 1.5em; align-items: flex-start; overflow-x: auto; }
.picture, figure.cut { overflow-x: auto; margin: 0.5em 0; }
svg.graph .node.lit rect { stroke: #d62728; stroke-width: 3; }
table { border-collapse: collapse; margin: 0.5em 0; } td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; }
div.kernel, div.extern { margin: 0.8em 0; }"""

# Pointing at a node lights up the node of the same name in every picture of the same compile.
_SCRIPT = """document.querySelectorAll("section.compile").forEach(function (compile) {
  compile.querySelectorAll("svg.graph g.node").forEach(function (node) {
    var same = compile.querySelectorAll('g.node[data-node="' + CSS.escape(node.dataset.node) + '"]');
    node.addEventListener("mouseenter", function () { same.forEach(function (n) { n.classList.add("lit"); }); });
    node.addEventListener("mouseleave", function () { same.forEach(function (n) { n.classList.remove("lit"); }); });
  });
});
document.body.dataset.script = "ran";"""


def write_report(path, command, ours, theirs=None, comparison=None, walkthrough=None):
    """ours, theirs: compare.RunResult; comparison: a compare.Comparison or None; walkthrough: the HTML the
    child wrote (None: it wrote none)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(render(command, ours, theirs, comparison, walkthrough))


def render(command, ours, theirs=None, comparison=None, walkthrough=None):
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>minitorch2 run report</title>", f"<style>{_STYLE}</style></head><body>",
             "<h1>minitorch2 run report</h1>",
             f"<p>Command: <code>{_e(shlex.join(command))}</code><br>Exit status: {ours.returncode}</p>"]
    if comparison is not None:
        verdict = "same" if comparison.matches else "differs"
        parts += [f'<h2>Comparison with PyTorch: <span class="{verdict}">{verdict}</span></h2>',
                  _pre(format_report(comparison))]
    parts.append(walkthrough if walkthrough is not None else
                 '<p class="error">The run wrote no walkthrough (it ended before its script finished).</p>')
    parts += ["<h2>What the script printed</h2>", "<h3>stdout</h3>", _pre(ours.stdout),
              "<h3>stderr</h3>", _pre(without_artifacts(ours.stderr, keep=()))]
    logged = _artifact_sections(ours.stderr)
    if logged:
        parts += ["<h2>Logged artifacts (MINITORCH2_LOGS, --show), per layer</h2>", *logged]
    if theirs is not None:
        parts += ["<h2>The same script on PyTorch</h2>",
                  f"<p>Command: <code>{_e(_torch_command_text(theirs.command))}</code><br>"
                  f"Exit status: {theirs.returncode}</p>",
                  "<h3>stdout</h3>", _pre(theirs.stdout),
                  "<h3>Logged artifacts</h3>", *(_artifact_sections(theirs.stderr) or ["<p>(nothing logged)</p>"])]
    parts += [f"<script>{_SCRIPT}</script>", "</body></html>"]
    return "\n".join(parts) + "\n"


def _artifact_sections(stderr):
    records = {}
    for record in log_records(stderr):
        records.setdefault(record.artifact, []).append("\n".join(record.lines))
    layer_of = {artifact: layer for layer, artifacts in LAYERS.items() for artifact in (*artifacts.ours,
                                                                                         *artifacts.torch)}
    ordered = sorted(records, key=lambda a: list(layer_of).index(a) if a in layer_of else len(layer_of))
    sections = []
    for artifact in ordered:
        texts = records[artifact]
        label = f"{layer_of.get(artifact, 'other')}: {artifact} ({len(texts)} record{'s' * (len(texts) != 1)})"
        sections.append(f"<details><summary>{_e(label)}</summary>{_pre(chr(10).join(texts))}</details>")
    return sections


def _torch_command_text(command):
    # the --backend bootstrap is a page of code: show it as what it does
    if len(command) > 2 and command[1] == "-c":
        return shlex.join([command[0], "-c", "<bootstrap: default backend " + command[3] + ">", *command[4:]])
    return shlex.join(command)


def _pre(text):
    return f"<pre>{_e(text)}</pre>" if text else "<p>(empty)</p>"


def _e(text):
    return html.escape(str(text))
