"""Frontend knobs (plays `torch._dynamo.config`)."""

cache_size_limit = 8  # compiled entries per code object; past it, hits still run, misses run eagerly
suppress_errors = False  # a failed compile warns and runs the code eagerly from then on, instead of raising
resume_inside_loops = False  # Dynamo 2.13 runs a frame eagerly when it breaks inside a loop; True resumes mid-loop
# torch.compiler.set_stance's (compiler.py): "force_eager", "eager_on_recompile" or "fail_on_recompile"; and with
# skip_guard_eval_unsafe, a call that no cache entry fits raises (Dynamo checks fewer guards; we check all of them)
stance = "default"
skip_guard_eval_unsafe = False
