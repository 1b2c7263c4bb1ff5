"""The packages' import arrows, as docs/architecture.md draws them.

    minitorch2 (runtime, fx)  <-  partition  <-  autograd  <-  backend
    minitorch2                <-  frontend
    everything                <-  minitorch2.cli (the shell: `python -m minitorch2`)

A module imports only its own layer and the layers below it. Two arrows point up, at the moment
they are needed: `minitorch2.compile` imports `frontend` when it is called, and `frontend/backends/`
(torch._dynamo.backends) reaches the compiler (`autograd`, `partition`, `backend`), a module
importing `frontend` never loads. Every import made inside a function says why on its line or the
line above: those that remain break an import cycle or defer a heavy dependency.
"""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("minitorch2", "frontend", "autograd", "partition", "backend")

BELOW = {
    "runtime": {"runtime"},
    "partition": {"runtime", "partition"},
    "autograd": {"runtime", "partition", "autograd"},
    "backend": {"runtime", "partition", "autograd", "backend"},
    "frontend": {"runtime", "frontend"},
    "cli": {"runtime", "partition", "autograd", "backend", "frontend", "cli"},
}
# (importing module or folder, imported layer, only inside a function?): the upward arrows
UPWARD = {
    ("minitorch2/__init__.py", "frontend", True),
    ("minitorch2/nn/modules/module_more.py", "frontend", True),  # Module.compile: torch.compile of its call
    # torch.compile's backend= looked up, and its options= applied to backend.config while the graph compiles
    ("minitorch2/_compile_args.py", "frontend", True),
    ("minitorch2/_compile_args.py", "backend", True),
    ("minitorch2/export/_compiler.py", "autograd", True),
    ("minitorch2/_functions_nn_level.py", "autograd", True),  # torch.vmap is torch.func's
    ("minitorch2/jit.py", "autograd", True),  # torch.jit.trace of a function records it with make_fx
    ("frontend/backends/", "autograd", False),
    ("frontend/backends/", "partition", False),
    ("frontend/backends/", "backend", False),
}


def layer_of_file(relative):
    if relative.startswith("minitorch2/cli/") or relative == "minitorch2/__main__.py":
        return "cli"
    top = relative.split("/")[0]
    return "runtime" if top == "minitorch2" else top


def layer_of_module(dotted):
    if dotted == "minitorch2.cli" or dotted.startswith(("minitorch2.cli.", "minitorch2.__main__")):
        return "cli"
    top = dotted.split(".")[0]
    if top == "minitorch2":
        return "runtime"
    return top if top in PACKAGES else None


def absolute_module(relative, node):
    """The dotted names an import statement brings in (relative imports resolved against the file)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level == 0:
        return [node.module]
    package = relative[:-3].split("/")
    if package[-1] != "__init__":
        package = package[:-1]
    else:
        package = package[:-1]
    base = package[:len(package) - (node.level - 1)]
    prefix = ".".join(base)
    if node.module:
        return [f"{prefix}.{node.module}"]
    return [f"{prefix}.{alias.name}" for alias in node.names]


def imports(path):
    """(line, dotted name, inside a function?) for every import in the file."""
    relative = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text())
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend((child.lineno, name, in_function) for name in absolute_module(relative, child))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return found


def library_files():
    return [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]


def test_every_package_imports_only_the_layers_below_it():
    wrong = []
    for path in library_files():
        relative = path.relative_to(ROOT).as_posix()
        importer = layer_of_file(relative)
        for line, name, in_function in imports(path):
            imported = layer_of_module(name)
            if imported is None or imported in BELOW[importer]:
                continue
            upward_allowed = any(relative.startswith(place) and imported == layer and (in_function or not lazy)
                                 for place, layer, lazy in UPWARD)
            if not upward_allowed:
                wrong.append(f"{relative}:{line} ({importer}) imports {name} ({imported})")
    assert not wrong, "imports against the layering:\n" + "\n".join(wrong)


@pytest.mark.parametrize("package, never_loads", [
    ("minitorch2", ("frontend", "autograd", "partition", "backend", "minitorch2.cli")),
    ("partition", ("frontend", "autograd", "backend", "networkx")),  # networkx: at the first cut only
    ("autograd", ("frontend", "backend")),
    ("frontend", ("autograd", "partition", "backend", "minitorch2.cli")),
    ("backend", ("frontend",)),
])
def test_importing_a_package_loads_no_layer_above_it(package, never_loads):
    loaded = subprocess.run(
        [sys.executable, "-c", f"import sys, {package}; print(' '.join(sorted(sys.modules)))"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    assert not [name for name in loaded if name in never_loads]


def test_every_import_inside_a_function_says_why():
    silent = []
    for path in library_files():
        lines = path.read_text().splitlines()
        for line, name, in_function in imports(path):
            if not in_function:
                continue
            here, above = lines[line - 1], lines[line - 2] if line >= 2 else ""
            if "#" not in here and not above.lstrip().startswith("#"):
                silent.append(f"{path.relative_to(ROOT).as_posix()}:{line} imports {name}")
    assert not silent, "imports inside functions without a reason:\n" + "\n".join(silent)


@pytest.mark.parametrize("relative, node_source, expected", [
    ("backend/codegen/llvm.py", "from .. import config", ["backend.config"]),
    ("backend/codegen/__init__.py", "from .. import config", ["backend.config"]),
    ("minitorch2/_aten/table.py", "from . import views", ["minitorch2._aten.views"]),
    ("frontend/guards.py", "import minitorch2", ["minitorch2"]),
])
def test_relative_imports_resolve_to_the_module_they_name(relative, node_source, expected):
    assert absolute_module(relative, ast.parse(node_source).body[0]) == expected
