"""`python -m minitorch2 run --compare-torch`: what differs between a script on minitorch2 and on PyTorch.

CLI layer, used by run.py (and the HTML report, report.py). The
command runs the script twice in subprocesses, once under `python -m
minitorch2 run` and once under plain `python` with real PyTorch, and hands the
two results (stdout, stderr, exit status) to the pure functions here:

    compare_outputs(ours, theirs)    printed lines aligned with difflib; a line whose numbers are equal
                                     as numbers (integers exactly, floats within float32 tolerance or
                                     the last printed digit) counts as matching
    compare_graphs(ours, theirs)     the graphs both logged (MINITORCH2_LOGS / TORCH_LOGS), paired by
                                     artifact and title, compared op by op
    compare_runs(ours, theirs, ...)  all three (and the exit status) -> a Comparison
    format_report(comparison)        the text `--compare-torch` prints after the script's output: a
                                     differing graph's ops side by side, aligned (side_by_side)

The one idea: both stacks log graphs in the same glog-style format, so once
the per-line prefixes (time, pid, call site, which differ) are stripped, a
graph is its printed Python, and the op of each statement can be read back
with `ast`. Nothing here imports torch; the torch run is a subprocess.
"""
import ast
import collections
import difflib
import re
from dataclasses import dataclass, field

# torch.testing.assert_close's defaults for float32
RTOL = 1.3e-6
ATOL = 1e-5

# layer of `run --show` -> the MINITORCH2_LOGS artifacts that print it, and TORCH_LOGS's counterparts
Layer = collections.namedtuple("Layer", "ours torch")
LAYERS = {
    "dynamo": Layer(("graph_code",), ("graph_code",)),
    "aot": Layer(("aot_graphs",), ("aot_graphs",)),
    "joint": Layer(("aot_joint_graph",), ("aot_joint_graph",)),
    "partition": Layer(("partition",), ()),  # torch has no partition artifact
    "kernels": Layer(("output_code", "fusion"), ("output_code",)),
    "guards": Layer(("guards",), ("guards",)),
}
# Graphs print as FX code on both sides, so these can be compared op by op; kernels (LLVM vs C++)
# and guards (a Python function vs a guard-manager tree) print in formats that differ by design.
GRAPH_ARTIFACTS = {"graph_code": "dynamo", "aot_joint_graph": "joint", "aot_graphs": "aot"}
# The layers `--compare-torch` compares when `--show` names none.
DEFAULT_COMPARED_LAYERS = ("dynamo", "aot", "joint")

RunResult = collections.namedtuple("RunResult", "command stdout stderr returncode")


# ---- the logs: glog lines -> records -> graphs ------------------------------------------------------

# V1129 16:50:58.914000 18302 frontend/eval_frame.py:140] [0/1] [__graph_code] TRACED GRAPH
_GLOG_LINE = re.compile(r"^(?P<prefix>[A-Z]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ \S+\] "  # level, time, pid, site
                        r"(?:\[[^\]]*\] )*?\[__(?P<artifact>\w+)\]) ?"  # [compile id] [__artifact]
                        r"(?P<text>.*)$")
# torch appends a uuid to its graph names: __compiled_fn_1_6ef055e3_a951_417b_b299_69d69d88bfd4
_UUID_SUFFIX = re.compile(r"_[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{12}$")

LogRecord = collections.namedtuple("LogRecord", "artifact lines")
Graph = collections.namedtuple("Graph", "artifact title lines")


def log_records(stderr):
    """The artifact records in stderr: runs of lines with the same prefix (one log call), prefix stripped."""
    records, last_prefix = [], None
    for line in stderr.splitlines():
        match = _GLOG_LINE.match(line)
        if match is None:
            last_prefix = None
            continue
        # two graphs logged within the same microsecond share a prefix: a title line starts a record too
        if match["prefix"] != last_prefix or match["text"] == "TRACED GRAPH":
            records.append(LogRecord(match["artifact"], []))
            last_prefix = match["prefix"]
        records[-1].lines.append(match["text"])
    return records


def without_artifacts(stderr, keep):
    """stderr less the artifact lines whose artifact is not in keep (other lines all stay)."""
    lines = []
    for line in stderr.splitlines(keepends=True):
        match = _GLOG_LINE.match(line.rstrip("\n"))
        if match is None or match["artifact"] in keep:
            lines.append(line)
    return "".join(lines)


def graphs(stderr):
    """Every TRACED GRAPH the graph artifacts logged, in order, titled as logged (less torch's uuids)."""
    found = []
    for record in log_records(stderr):
        if record.artifact not in GRAPH_ARTIFACTS or not record.lines or record.lines[0].strip() != "TRACED GRAPH":
            continue
        title = record.lines[1].strip().strip("=").strip() if len(record.lines) > 1 else "?"
        found.append(Graph(record.artifact, _UUID_SUFFIX.sub("", title), record.lines[2:]))
    return found


# ---- ops of a printed graph ------------------------------------------------------------------------

_OPERATORS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.MatMult: "matmul", ast.Div: "truediv",
              ast.FloorDiv: "floordiv", ast.Mod: "mod", ast.Pow: "pow", ast.BitAnd: "and_", ast.BitOr: "or_",
              ast.BitXor: "xor", ast.LShift: "lshift", ast.RShift: "rshift", ast.USub: "neg", ast.UAdd: "pos",
              ast.Invert: "invert", ast.Not: "not_", ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt",
              ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
# Names a graph's code calls functions from; any other name is a value, and `value.f()` a method call.
_NAMESPACES = {"torch", "operator", "math", "builtins", "self", "fx_pytree", "pytree"}
# Calls the printed code makes to (un)flatten its arguments: not ops of the graph.
_PLUMBING = ("fx_pytree.", "pytree.")


def graph_ops(lines):
    """The ops a printed graph calls, in order: 'torch.ops.aten.mm.default', 'torch.relu', 'Tensor.sum',
    'operator.matmul', 'operator.getitem' (the code's placeholders, aliases and return are not ops)."""
    ops = []
    for line in lines:
        op = statement_op(line)
        if op is not None:
            ops.append(op)
    return ops


def statement_op(line):
    """The op one line of graph code calls, or None (not an assignment, or not a call)."""
    try:
        tree = ast.parse(line.strip())
    except SyntaxError:
        return None
    if not tree.body or not isinstance(tree.body[0], (ast.Assign, ast.AnnAssign)) or tree.body[0].value is None:
        return None
    op = _expression_op(tree.body[0].value)
    if op is None or op.startswith(_PLUMBING):
        return None
    return op


def _expression_op(node):
    if isinstance(node, ast.Call):
        name = _dotted_name(node.func)
        if name is None:
            return None
        root, _, rest = name.partition(".")
        return name if root in _NAMESPACES or not rest else f"Tensor.{rest.split('.')[-1]}"
    if isinstance(node, (ast.BinOp, ast.UnaryOp)):
        return f"operator.{_OPERATORS.get(type(node.op), type(node.op).__name__)}"
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return f"operator.{_OPERATORS.get(type(node.ops[0]), type(node.ops[0]).__name__)}"
    if isinstance(node, ast.Subscript):
        return "operator.getitem"
    return None


def _dotted_name(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


# ---- comparisons -----------------------------------------------------------------------------------

@dataclass
class LineDifference:
    kind: str  # "within tolerance" | "differs" | "only in minitorch2" | "only in torch"
    ours_line: int = None  # 1-based line numbers, None when the line is missing on that side
    torch_line: int = None
    ours: str = None
    theirs: str = None


@dataclass
class OutputComparison:
    ours_count: int
    torch_count: int
    same: int = 0
    within_tolerance: list = field(default_factory=list)
    differences: list = field(default_factory=list)

    @property
    def matches(self):
        return not self.differences


@dataclass
class GraphComparison:
    layer: str
    title: str
    verdict: str  # "same" | "differs" | "only in minitorch2" | "only in torch"
    ours_ops: list = field(default_factory=list)
    torch_ops: list = field(default_factory=list)

    @property
    def first_difference(self):
        """(1-based position, our op, torch's op) where the sequences first differ (an op is None where
        its graph has already ended); None when they are equal."""
        for i, (ours, theirs) in enumerate(zip(self.ours_ops, self.torch_ops)):
            if ours != theirs:
                return i + 1, ours, theirs
        shorter = min(len(self.ours_ops), len(self.torch_ops))
        if len(self.ours_ops) == len(self.torch_ops):
            return None
        return (shorter + 1, self.ours_ops[shorter] if shorter < len(self.ours_ops) else None,
                self.torch_ops[shorter] if shorter < len(self.torch_ops) else None)


@dataclass
class Comparison:
    output: OutputComparison
    graphs: list  # GraphComparison, in log order
    layers: tuple  # the layers whose logs both runs switched on
    compared_layers: tuple  # those of them printed as graphs, compared op by op
    ours_status: int
    torch_status: int
    ours_error: str = ""  # the last line a failing run wrote to stderr (its exception, usually)
    torch_error: str = ""

    @property
    def matches(self):
        return (self.output.matches and all(g.verdict == "same" for g in self.graphs)
                and self.ours_status == self.torch_status)


_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?\b(?:nan|inf)\b")


def numbers_close(ours_line, torch_line, rtol=RTOL, atol=ATOL):
    """Do two lines differ only in numbers, each pair equal as numbers? Integers must be equal; floats within
    float32 tolerance (|a - b| <= atol + rtol * |b|) or, printed to the same fixed precision (a tensor's 4
    decimals: the last digit rounded), within one unit of their last digit.

    The text around the numbers must match, up to runs of spaces (tensor columns pad to the widest value).
    """
    if _skeleton(ours_line) != _skeleton(torch_line):
        return False
    ours_numbers, torch_numbers = _NUMBER.findall(ours_line), _NUMBER.findall(torch_line)
    return all(_close(a, b, rtol, atol) for a, b in zip(ours_numbers, torch_numbers))


def _skeleton(line):
    return " ".join(_NUMBER.sub("#", line).split())


def _close(a, b, rtol, atol):
    if _is_integer(a) and _is_integer(b):
        return int(a) == int(b)
    x, y = float(a), float(b)
    if x != x or y != y:  # nan matches only nan
        return x != x and y != y
    if x == y:  # also equal infinities
        return True
    return abs(x - y) <= max(atol + rtol * abs(y), _last_digit(a, b) * (1 + 1e-9))


def _last_digit(a, b):
    """One unit of the last printed digit when a and b were printed alike to a fixed precision (as many
    decimals, at least 4 as a tensor prints them, the same notation), else 0: floats printed shortest
    (`1.0`, `0.5`, `1.0001`) are exact values, not rounded ones."""
    shapes = [(_decimals(t), "e" in t.lower()) for t in (a, b)]
    if shapes[0] != shapes[1] or shapes[0][0] < 4:
        return 0.0
    exponents = [int(t.lower().split("e")[1]) if "e" in t.lower() else 0 for t in (a, b)]
    return 10.0 ** (max(exponents) - shapes[0][0])


def _decimals(token):
    mantissa = token.lower().split("e")[0]
    return len(mantissa.split(".")[1]) if "." in mantissa else 0


def _is_integer(token):
    return token.lstrip("+-").isdigit()


def compare_outputs(ours_text, torch_text, rtol=RTOL, atol=ATOL):
    """Align the printed lines with difflib; pair the lines of each replaced block one to one."""
    ours, theirs = ours_text.splitlines(), torch_text.splitlines()
    result = OutputComparison(len(ours), len(theirs))
    matcher = difflib.SequenceMatcher(None, ours, theirs, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            result.same += i2 - i1
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            i, j = i1 + k, j1 + k
            if i < i2 and j < j2:
                close = numbers_close(ours[i], theirs[j], rtol, atol)
                kind = "within tolerance" if close else "differs"
                difference = LineDifference(kind, i + 1, j + 1, ours[i], theirs[j])
                (result.within_tolerance if close else result.differences).append(difference)
            elif i < i2:
                result.differences.append(LineDifference("only in minitorch2", ours_line=i + 1, ours=ours[i]))
            else:
                result.differences.append(LineDifference("only in torch", torch_line=j + 1, theirs=theirs[j]))
    return result


def compare_graphs(ours_stderr, torch_stderr):
    """Pair the logged graphs and compare their op sequences.

    Graphs pair by artifact, kind (the title less its number: "Forward graph", "__compiled_fn") and
    order of appearance, not by number: both count every translation attempt and resume function
    into `__compiled_fn_N`, so one graph break more on either side would shift every later number.
    """
    ours, theirs = _graphs_by_kind(ours_stderr), _graphs_by_kind(torch_stderr)
    keys = list(ours) + [key for key in theirs if key not in ours]
    results = []
    for key in keys:
        layer = GRAPH_ARTIFACTS[key[0]]
        ours_graph, torch_graph = ours.get(key), theirs.get(key)
        if torch_graph is None:
            results.append(GraphComparison(layer, ours_graph.title, "only in minitorch2", graph_ops(ours_graph.lines)))
        elif ours_graph is None:
            results.append(GraphComparison(layer, torch_graph.title, "only in torch", [], graph_ops(torch_graph.lines)))
        else:
            title = ours_graph.title
            if torch_graph.title != title:
                title += f" (torch: {torch_graph.title})"
            ours_ops, torch_ops = graph_ops(ours_graph.lines), graph_ops(torch_graph.lines)
            results.append(GraphComparison(layer, title, "same" if ours_ops == torch_ops else "differs",
                                           ours_ops, torch_ops))
    return results


def _graphs_by_kind(stderr):
    """{(artifact, kind, n): the n-th graph of that kind the artifact logged}, in log order."""
    seen, table = collections.Counter(), {}
    for graph in graphs(stderr):
        kind = (graph.artifact, re.sub(r"[_ ]?\d+$", "", graph.title))
        table[(*kind, seen[kind])] = graph
        seen[kind] += 1
    return table


def compare_runs(ours, theirs, layers=DEFAULT_COMPARED_LAYERS):
    """ours, theirs: RunResult of the two runs; layers: the --show layers whose graphs were logged."""
    compared = tuple(layer for layer in layers if any(a in GRAPH_ARTIFACTS for a in LAYERS[layer].ours))
    graph_results = [g for g in compare_graphs(ours.stderr, theirs.stderr) if g.layer in compared]
    return Comparison(compare_outputs(ours.stdout, theirs.stdout), graph_results, tuple(layers), compared,
                      ours.returncode, theirs.returncode, _error_line(ours), _error_line(theirs))


def _error_line(run):
    if run.returncode == 0:
        return ""
    lines = [line for line in without_artifacts(run.stderr, keep=()).splitlines() if line.strip()]
    return lines[-1] if lines else ""


# ---- the report ------------------------------------------------------------------------------------

def format_report(comparison):
    """The text printed after the script's output: a header per section, verdicts, a one-line summary."""
    lines = ["==== minitorch2 run --compare-torch: minitorch2 vs torch ===="]
    lines += _output_section(comparison.output)
    lines += _graph_section(comparison)
    status_verdict = "same" if comparison.ours_status == comparison.torch_status else "differs"
    lines.append(f"--- exit status: {status_verdict} (minitorch2 {comparison.ours_status}, "
                 f"torch {comparison.torch_status})")
    if status_verdict == "differs":
        lines += [f"  {who} stderr ends: {error}" for who, error in (("minitorch2", comparison.ours_error),
                                                                       ("torch", comparison.torch_error)) if error]
    lines.append(f"==== summary: {summary_line(comparison)}")
    return "\n".join(lines)


def summary_line(comparison):
    output = comparison.output
    parts = [f"stdout {len(output.differences)} line(s) differ" if output.differences else "stdout same"]
    if output.within_tolerance:
        parts[-1] += f" ({len(output.within_tolerance)} within float32 tolerance)"
    differing = sum(1 for g in comparison.graphs if g.verdict != "same")
    if comparison.graphs:
        parts.append(f"graphs {differing} of {len(comparison.graphs)} differ" if differing
                     else f"graphs same ({len(comparison.graphs)})")
    parts.append("exit status same" if comparison.ours_status == comparison.torch_status else "exit status differs")
    return ("same" if comparison.matches else "differs") + ": " + "; ".join(parts)


def _output_section(output):
    lines = [f"--- printed output (stdout): {'same' if output.matches else 'differs'}",
             f"  {output.ours_count} line(s) from minitorch2, {output.torch_count} from torch: {output.same} same, "
             f"{len(output.within_tolerance)} within tolerance (float32: rtol={RTOL}, atol={ATOL}; or one unit "
             f"of the last printed digit), "
             f"{len(output.differences)} differ"]
    for difference in sorted(output.differences + output.within_tolerance,
                             key=lambda d: (d.ours_line or 0, d.torch_line or 0)):
        where = f"line {difference.ours_line}" if difference.ours_line else f"torch line {difference.torch_line}"
        if difference.ours_line and difference.torch_line and difference.ours_line != difference.torch_line:
            where += f" (torch line {difference.torch_line})"
        lines.append(f"  {where}: {difference.kind}")
        if difference.ours is not None:
            lines.append(f"    minitorch2: {difference.ours}")
        if difference.theirs is not None:
            lines.append(f"    torch     : {difference.theirs}")
    return lines


def side_by_side(ours_ops, torch_ops, indent="      "):
    """The two op sequences aligned (difflib), one row per op: `=` the same, `|` replaced, `<` only ours,
    `>` only torch's."""
    width = max([len("minitorch2")] + [len(op) for op in ours_ops])
    rows = [f"{indent}{'minitorch2'.ljust(width)}   torch"]
    matcher = difflib.SequenceMatcher(None, ours_ops, torch_ops, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for k in range(max(i2 - i1, j2 - j1)):
            ours = ours_ops[i1 + k] if i1 + k < i2 else ""
            theirs = torch_ops[j1 + k] if j1 + k < j2 else ""
            mark = "=" if tag == "equal" else "|" if ours and theirs else "<" if ours else ">"
            rows.append(f"{indent}{ours.ljust(width)} {mark} {theirs}".rstrip())
    return rows


def _graph_section(comparison):
    if not comparison.compared_layers:
        return ["--- graphs (op by op): not compared (no graph layer among --show)"]
    verdict = "same" if all(g.verdict == "same" for g in comparison.graphs) else "differs"
    lines = [f"--- graphs (op by op): {verdict} (layers {', '.join(comparison.compared_layers)})"]
    if not comparison.graphs:
        lines.append("  no graph logged by either run")
    for graph in comparison.graphs:
        label = f"  {graph.layer} {graph.title}"
        if graph.verdict == "same":
            lines.append(f"{label}: same ({len(graph.ours_ops)} ops)")
        elif graph.verdict == "differs":
            position, ours, theirs = graph.first_difference
            lines.append(f"{label}: differs at op {position} (minitorch2 {len(graph.ours_ops)} ops, torch "
                         f"{len(graph.torch_ops)}): minitorch2 {ours or '(end of graph)'}, "
                         f"torch {theirs or '(end of graph)'}")
            lines += side_by_side(graph.ours_ops, graph.torch_ops)
        else:
            lines.append(f"{label}: {graph.verdict} ({len(graph.ours_ops or graph.torch_ops)} ops)")
    skipped = [layer for layer in comparison.layers if layer not in comparison.compared_layers]
    if skipped:
        lines.append(f"  not compared: {', '.join(skipped)} (torch prints them in other formats, or not at all)")
    return lines
