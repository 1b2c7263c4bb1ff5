"""Programs written in the style of third-party projects (issue 20), each run by `python script.py` on PyTorch and
by `python -m minitorch2 run script.py`: their printed output must be the same, line for line. One program per
class of stop found in the real projects (tests/nn/programs/): ddp_ready_train.py is nanoGPT's train.py in small
(DistributedDataParallel and the process-group functions imported at the top, torch.bfloat16 in a dtype table),
run as torchrun's world of one process (the imports are what stopped nanoGPT; the launcher's path uses them);
hogwild_train.py is mnist_hogwild's pattern (model.share_memory(), a worker process training it in place, a
shared tensor through a Queue), with the fork start method. The compiled training programs (test_compiled_*)
are a char-level GRU over a Dataset/DataLoader with AdamW, a cosine schedule, gradient clipping and sampling; a
VAE (the inductor's random numbers for its reparameterization, as torch.compile's) saved and loaded; a DCGAN
pair (ConvTranspose2d, BatchNorm, BCELoss, two Adams); pytorch/examples' word language model (LSTM with tied
weights, truncated backpropagation); a transformer classifier with a padding mask over random_split and a
DataLoader; a graph attention network in pytorch/examples' gat style (masked attention by torch.where over a uint8
adjacency, whose any/all give uint8 in eager, and any over one dim inside the compiled model); forward-forward
training in mnist_forward_forward's style (one Adam per layer, labels overlaid by index assignment, each layer's
forward compiled); time_sequence_prediction's LSTMCells in float64 under LBFGS with a printing closure (the
training forward compiled, the prediction into the future eager); a transformer classifier served in eval mode
without gradients on padded batches (the inference fast path's fused ops, eagerly and compiled); a conv net with
batch norms trained five compiled steps (the running statistics as torch's): each run under torch.compile's default
backend, every printed loss equal to torch's. nanogpt_char.py
is nanoGPT's model and training loop in small, run through `--compare-torch`: its graphs, op by op, are torch's too
(the fused CPU attention at eval and without dropout, the math path with it, two layers' causal masks merged as
torch's CSE merges them, cross_entropy's ignore_index)."""
import os
import socket
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAMS = os.path.join(ROOT, "tests", "nn", "programs")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


def _stdout(args, env):
    result = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                            env={**os.environ, **env})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_ddp_ready_training_script_prints_what_torch_prints():
    env = {"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1"}
    script = os.path.join(PROGRAMS, "ddp_ready_train.py")
    theirs = _stdout([script], {**env, "MASTER_PORT": _free_port()})
    ours = _stdout(["-m", "minitorch2", "run", script], {**env, "MASTER_PORT": _free_port()})
    assert ours == theirs
    assert "world 1 rank 0" in ours and "iter 3: loss" in ours


def test_a_hogwild_script_trains_its_shared_model_in_a_worker_as_torchs():
    script = os.path.join(PROGRAMS, "hogwild_train.py")
    env = {"OMP_NUM_THREADS": "1"}  # torch's thread pool and fork do not mix
    theirs = _stdout([script], env)
    ours = _stdout(["-m", "minitorch2", "run", script], env)
    assert ours == theirs
    assert "trained in the parent: True" in ours and "counts: [1.0, 1.0, 1.0] True" in ours


@pytest.mark.parametrize("name", ["char_gru", "vae", "dcgan", "lstm_lm", "transformer_cls", "graph_attention",
                                  "forward_forward", "sine_lstm_lbfgs", "transformer_cls_eval",
                                  "conv_bn_compiled_train", "llama_rope"])
def test_compiled_training_programs_print_what_torch_prints(name):
    script = os.path.join(PROGRAMS, f"{name}.py")
    env = {"OMP_NUM_THREADS": "1"}
    assert _stdout(["-m", "minitorch2", "run", script], env) == _stdout([script], env)


@pytest.mark.parametrize("dropout", ["0.0", "0.1"])
def test_a_nanogpt_training_loop_prints_and_traces_what_torch_does(dropout):
    script = os.path.join(PROGRAMS, "nanogpt_char.py")
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--compare-torch", script, dropout], check=False,
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "OMP_NUM_THREADS": "1"})
    report = result.stdout.split("==== minitorch2 run --compare-torch: minitorch2 vs torch ====\n")[1]
    assert "--- printed output (stdout): same\n" in report and "iter 5: loss" in result.stdout
    for graph in ("dynamo __compiled_fn_1", "aot Forward graph 0", "aot Forward graph 1", "aot Backward graph 1"):
        assert f"  {graph}: same (" in report
    # (the joint graph too: with dropout, native_dropout_backward's decomposition ends in torch's clone)
    assert report.rstrip("\n").split("\n")[-1].startswith("==== summary: same:")


@pytest.mark.parametrize("name", ["transformer_cls_eval", "conv_bn_compiled_train"])
def test_inference_and_batch_norm_programs_trace_what_torch_does(name):
    """The eval transformer classifier's Dynamo graph (the fast path's fused encoder layers, the pooling attention's
    slow path made contiguous) and its AOT graph, op by op, are torch's; so are the batch-norm net's, whose forward
    ends in copy_ into the buffers as torch's inductor's does."""
    script = os.path.join(PROGRAMS, f"{name}.py")
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--compare-torch", script], check=False,
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "OMP_NUM_THREADS": "1"})
    report = result.stdout.split("==== minitorch2 run --compare-torch: minitorch2 vs torch ====\n")[1]
    assert "--- printed output (stdout): same\n" in report
    if name == "conv_bn_compiled_train":
        assert "aot Backward graph 0: same (" in report and "dynamo __compiled_fn_1: same (" in report
        assert "aot Forward graph 0: same (" in report
    assert report.rstrip("\n").split("\n")[-1].startswith("==== summary: same:")
