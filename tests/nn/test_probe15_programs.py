"""Programs in the style of third-party projects run in session 35 (pytorch/examples' super_resolution, eager and
compiled, with its super_resolve.py loading the whole saved model; fast_neural_style's training on synthetic
images, eager and compiled; language_translation's nn.Transformer translator and legacy/snli's LSTM pair
classifier, each eager and compiled; siamese_network, eager and compiled; regression), tests/nn/programs15/, each run by `python -m minitorch2 run
--compare-torch`: what it prints must be torch's, its graphs op by op torch's, both runs exit 0.
full_model_checkpoint_load.py: torch.load of a whole model under the default weights_only=True refuses its
classes with an UnpicklingError whose message names the class to allow; ours named minitorch2's module path
(`minitorch2.nn.modules.activation.ReLU`) where the user's code, and torch's message, say torch.nn.modules....
sentence_pair_lstm_compiled.py: a frame Dynamo cannot resume in (an LSTM, which it refuses, met with one op traced
before it: no checkpoint to go back to) falls back to eager for good, as Dynamo skips its code; ours kept a cache
entry with guards, so the encoder's next call with another sentence length recompiled it, now with a dynamic
length whose `inputs.size()` was a second op, and a partial graph compiled where torch's has none.
siamese_shared_batchnorm_compiled.py: a module with batch norm called twice in one compiled training graph (the
Siamese tower on both images) failed to compile under the inductor: the decomposition's copy_ into the running
statistics bumped their version, which the first call's NativeBatchNormBackward had saved; ATen's kernel writes
them without a bump (its schema marks no write), and so does the decomposition now.
reflection_padded_stylizer_compiled.py: F.pad's reflect mode (nn.ReflectionPad2d) was a composite here (arange, abs,
index_select), where torch's is one ATen op, aten.reflection_pad2d, with its own backward op; session 36 made reflect
and replicate ATen's ops (nn_pad_ops.py) and put instance_norm's view after its repeats, as ATen's."""
import pytest

from .program_reports import all_same, compare_report

FOLDER = "programs15"


@pytest.mark.parametrize("name", ["full_model_checkpoint_load", "sentence_pair_lstm_compiled",
                                  "siamese_shared_batchnorm_compiled"])
def test_program_prints_and_traces_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report


def test_reflection_padding_is_one_aten_op_in_compiled_graphs():
    report = compare_report(FOLDER, "reflection_padded_stylizer_compiled")
    assert all_same(report), report
