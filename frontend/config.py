"""Frontend knobs (plays `torch._dynamo.config`)."""

recompile_limit = 8  # (cache_size_limit, its old name) entries per code object; past it, hits run, misses run eagerly
suppress_errors = False  # a failed compile warns and runs the code eagerly from then on, instead of raising
allow_rnn = False  # as Dynamo 2.13, an nn.RNN/GRU/LSTM is not traced: wrapping one is a graph break
resume_inside_loops = False  # Dynamo 2.13 runs a frame eagerly when it breaks inside a loop; True resumes mid-loop
stance = None  # torch.compiler.set_stance's other than "default" (compiler.py): what runs instead of a compile
automatic_dynamic_shapes = True  # a size that changed between two compiles of a frame is a symbol from then on
assume_static_by_default = True  # sizes are static until they change (False: every size a symbol, dynamic=True)

from minitorch2._config_patch import Patcher  # noqa: E402

patch = Patcher(__name__, {"cache_size_limit": "recompile_limit"})  # patch(name=value): a with block's knobs
