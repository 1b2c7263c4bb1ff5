"""What the backend writes of its work: MINITORCH2_COMPILE_DEBUG folders (plays torch._inductor.debug; the
MINITORCH2_LOGS artifacts, output_code and fusion, compile_fx prints through minitorch2._logging).

Backend layer, called by compile_fx for every compiled graph. With MINITORCH2_COMPILE_DEBUG=1
(backend.config.debug) each graph gets a folder

    <debug_dir or ./minitorch2_compile_debug>/run_<time>-pid_<pid>/backend/<graph>/
        fx_graph_readable.py   the aten graph as received
        fx_graph_runnable.py   a script that rebuilds it and runs it on random inputs
        ir_pre_fusion.txt      the lowered IR buffers, fallbacks listed
        ir_post_fusion.txt     the fused loop_ir kernels and every refused fusion with its reason
        output_code.py         the generated wrapper module, each kernel's LLVM IR or Triton source included
"""
import os
import time

from minitorch2._tensor import Tensor

from . import config

_run_dir = None


def run_dir():
    global _run_dir
    if _run_dir is None:
        root = config.debug_dir or os.path.join(os.getcwd(), "minitorch2_compile_debug")
        stamp = time.strftime("%Y_%m_%d_%H_%M_%S")
        _run_dir = os.path.join(root, f"run_{stamp}-pid_{os.getpid()}")
    return _run_dir


def write_graph_files(name, gm, example_inputs, pre_fusion, post_fusion, output_code):
    folder = os.path.join(run_dir(), "backend", name)
    os.makedirs(folder, exist_ok=True)
    files = {
        "fx_graph_readable.py": gm.print_readable(print_output=False),
        "fx_graph_runnable.py": runnable_script(gm, example_inputs),
        "ir_pre_fusion.txt": pre_fusion,
        "ir_post_fusion.txt": post_fusion,
        "output_code.py": output_code,
    }
    for filename, text in files.items():
        with open(os.path.join(folder, filename), "w") as f:
            f.write(text)
    return folder


def runnable_script(gm, example_inputs):
    """A standalone script: the graph's code as a function, called on random inputs of the example shapes."""
    inputs = []
    for value in example_inputs:
        if isinstance(value, Tensor):
            maker = "randn" if value.dtype.is_floating_point else "zeros"
            inputs.append(f"minitorch2.{maker}({tuple(value.shape)}, dtype=minitorch2.{value.dtype.name})")
        else:
            inputs.append(repr(value))
    return "\n".join([
        "import minitorch2",
        "import minitorch2 as torch",
        "",
        gm.code.strip().replace("def forward(self, ", "def forward(").replace("def forward(self)", "def forward()"),
        "",
        "",
        'if __name__ == "__main__":',
        f"    print(forward({', '.join(inputs)}))",
        "",
    ])
