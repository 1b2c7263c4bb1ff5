"""Under `run`, a script's TORCH_LOGS: torch's names accepted (ours, or dropped in one line when only torch logs
them), an unknown name refused at startup in one line with torch's words."""
import importlib.util
import os
import subprocess
import sys

import pytest
from torch._logging._internal import _parse_log_settings, log_registry

from minitorch2 import _logging
from minitorch2.cli import run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _torch_accepts(name):
    """A log or artifact name torch registers, or a module it would log (its parser, given a module name,
    registers a logger for it: asked here without parsing, so torch's logging is left as it was)."""
    if "." in name:
        return importlib.util.find_spec(name) is not None
    return name == "all" or log_registry.is_log(name) or log_registry.is_artifact(name)


def test_every_torch_log_name_we_accept_or_drop_is_one_torch_knows():
    ours_from_torch = [*_logging.TORCH_COMPONENT_NAMES, "graph_code", "guards", "recompiles", "graph_breaks",
                       "output_code", "bytecode", "aot_graphs", "aot_joint_graph", "fusion", "all"]
    names = [*ours_from_torch, *run.TORCH_ONLY_LOGS, *run.TORCH_MODULE_LOGS]
    assert not [name for name in names if not _torch_accepts(name)]
    for name in ours_from_torch:  # and each is a name of ours too
        _logging._parse(name)


def test_torch_logs_becomes_our_setting(capsys):
    assert run._from_torch_logs("+dynamo, aot,-inductor,graph_code,guards,recompiles,graph_breaks,output_code") == \
        "+dynamo,aot,-inductor,graph_code,guards,recompiles,graph_breaks,output_code"
    assert capsys.readouterr().err == ""
    assert run._from_torch_logs("+torch._dynamo,kernel_code,torch._subclasses,post_grad_graphs,guards") == \
        "+dynamo,guards"
    assert capsys.readouterr().err == ("python -m minitorch2 run: TORCH_LOGS: minitorch2 does not log kernel_code, "
                                       "torch._subclasses, post_grad_graphs; ignored\n")
    artifacts, levels = _logging._parse(run._from_torch_logs("+torch._dynamo,torch._inductor,graph_code"))
    assert artifacts == {"graph_code"} and set(levels) == {"frontend", "backend"}


def test_an_unknown_name_is_refused_at_startup_in_one_line_with_torchs_words(tmp_path):
    script = tmp_path / "script.py"
    script.write_text("print('ran')\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TORCH_LOGS", "MINITORCH2_"))}
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", str(script)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120, env={**env, "TORCH_LOGS": "graph_code,bogus"})
    assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    with pytest.raises(ValueError) as torchs:
        _parse_log_settings("graph_code,bogus")
    torch_words = " ".join(str(torchs.value).split())
    start = "Invalid log settings: graph_code,bogus, must be a comma separated list of"
    assert torch_words.startswith(start) and f"run: {start} registered log names" in result.stderr
    assert "Valid settings: graph_code, " in result.stderr
