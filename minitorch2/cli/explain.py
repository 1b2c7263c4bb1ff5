"""`python -m minitorch2 explain`: every frame a script compiled, with its graphs, breaks and guards.

CLI layer, called by `cli.main`. The script runs as under `run` (run.py),
while an observer of the frontend's translations (`eval_frame._observers`)
records each new cache entry: the script's own `torch.compile`
calls, `with optimize()` blocks, and the resume functions of graph breaks.
Afterwards the entries are grouped by code object and each frame prints as
one `torch._dynamo.explain` output (frontend/explain.py): graphs as code,
graph breaks with their reasons, explanations and hints, and guards.

The one idea to hold: nothing is re-traced to explain; the report reads the
cache entries the run itself made, so it describes exactly what ran.
"""
import os
import sys

from frontend import eval_frame
from frontend.explain import ExplainOutput, _reason

from .run import run_script


def main(options):
    return explain_script(options.script, options.args)


def explain_script(script, args):
    """Run script (as `run` does) and print, per compiled frame, graphs, breaks with reasons, and guards."""
    if not os.path.exists(script):
        print(f"python -m minitorch2 explain: can't open file '{script}'", file=sys.stderr)
        return 2
    compiled = []  # CacheEntry, in the order the frames were compiled

    def record(entry):
        compiled.append(entry)

    eval_frame._observers.append(record)
    try:
        status = run_script(script, args)
    finally:
        eval_frame._observers.remove(record)
    sys.stdout.flush()
    print(explain_report(compiled, eval_frame.CACHE))
    return status


def explain_report(entries, cache):
    """The text `explain` prints: one ExplainOutput per compiled frame (code object), in compile order."""
    code_of = {id(e): code for code, code_entries in cache.items() for e in code_entries}
    frames = {}
    for entry in entries:
        frames.setdefault(code_of.get(id(entry)), []).append(entry)
    graph_total = sum(1 for e in entries if e.graph is not None)
    lines = [f"==== minitorch2 explain: {len(frames)} frame(s) compiled, {graph_total} graph(s) ===="]
    for code, frame_entries in frames.items():
        where = f"{code.co_name} ({code.co_filename}:{code.co_firstlineno})" if code else "(a frame forgotten by reset())"
        graphs = [e.graph for e in frame_entries if e.graph is not None]
        breaks = [_reason(e) for e in frame_entries if e.break_reason and e.graph is not None]
        eager = [_reason(e) for e in frame_entries if e.break_reason and e.graph is None]
        guards = [g for e in frame_entries for g in e.guard_fn.guard_list]
        output = ExplainOutput(graphs, breaks, guards, eager)
        output.graph_break_count = len(breaks) + len(eager)  # per frame: its breaks (not graphs - 1)
        lines += ["", f"--- frame {where}: {len(frame_entries)} cache entr{'y' if len(frame_entries) == 1 else 'ies'}",
                  str(output).rstrip("\n"), "Graphs:"]
        for i, gm in enumerate(graphs, 1):
            lines.append(f"  Graph {i}:")
            code_text = gm.print_readable(print_output=False, include_stride=True, include_device=True)
            lines += [f"    {line}" if line else "" for line in code_text.rstrip("\n").split("\n")]
    return "\n".join(lines)
