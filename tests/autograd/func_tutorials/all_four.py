"""The four torch.func tutorial programs of this folder run one after another in one process (one import of the
library for all four, so the comparison with torch stays short enough for the default test run)."""
import os
import runpy

HERE = os.path.dirname(os.path.abspath(__file__))
for name in ("per_sample_grads", "model_ensembling", "jacobians_hessians", "neural_tangent_kernels"):
    print(f"==== {name}")
    runpy.run_path(os.path.join(HERE, f"{name}.py"), run_name="__main__")
