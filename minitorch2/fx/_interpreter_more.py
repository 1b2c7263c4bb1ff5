"""torch.fx's Interpreter.boxed_run: a run whose argument list is cleared once read, so the caller's references to
the inputs go early. No stage of the pipeline calls it (the backends run compiled code, autograd its own
Interpreter subclass with run).

FX layer, coverage surface. Interpreter (interpreter.py) takes it from the mixin here.
"""


class InterpreterBoxedRun:
    """Interpreter.boxed_run."""

    def boxed_run(self, args_list):
        """Run with a list of inputs that is cleared once read, so the caller's references go early."""
        placeholders = [n for n in self.graph.nodes if n.op == "placeholder"]
        if len(args_list) != len(placeholders):
            detail = "extra arguments" if len(args_list) > len(placeholders) else "missing arguments"
            raise RuntimeError(
                f"Interpreter.boxed_run expected {len(placeholders)} arguments for placeholders "
                f"but received {len(args_list)} ({detail})"
            )
        env = dict(zip(placeholders, args_list))
        args_list.clear()
        return self.run(initial_env=env)
