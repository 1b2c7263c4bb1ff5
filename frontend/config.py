"""Frontend knobs (plays `torch._dynamo.config`)."""

cache_size_limit = 8  # compiled entries per code object before the frame runs eagerly
suppress_errors = False  # a backend failure falls back to eager instead of raising
verbose = False
inline_inbuilt_nn_modules = True  # parameters become graph inputs, module calls are inlined
resume_inside_loops = False  # Dynamo 2.13 runs a frame eagerly when it breaks inside a loop; True resumes mid-loop
