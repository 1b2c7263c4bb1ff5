"""Programs in the style of third-party scripts run in session 28 (graykode/nlp-tutorial, karpathy/ng-video-lecture,
karpathy/llama2.c, yunjey/pytorch-tutorial, jcjohnson/pytorch-examples), tests/nn/programs8/, each run by
`python -m minitorch2 run --compare-torch`: what it prints must be torch's, both runs exit 0, and the graphs of its
compiled parts op by op torch's.
set_vocab_ngram_model.py: the NLP tutorials number their vocabulary with `list(set(words))`, so the two runs agreed
only when their string hashing did; --compare-torch gave each child its own random PYTHONHASHSEED and reported
every loss and prediction as different. It runs here with PYTHONHASHSEED unset, as a user's shell has it."""
import os
import subprocess
import sys

import pytest

from .program_reports import HEADER, ROOT, all_same, compare_report

FOLDER = "programs8"


def test_a_set_numbered_vocabulary_compares_with_the_callers_hashing_unset():
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
    result = subprocess.run([sys.executable, "-m", "minitorch2", "run", "--compare-torch",
                             os.path.join(ROOT, "tests", "nn", FOLDER, "set_vocab_ngram_model.py")], cwd=ROOT,
                            capture_output=True, text=True, timeout=600, env={**env, "OMP_NUM_THREADS": "1"})
    assert HEADER in result.stdout, result.stderr
    report = result.stdout.split(HEADER)[1]
    assert all_same(report), report


@pytest.mark.parametrize("name", [])
def test_program_prints_and_traces_what_torch_does(name):
    report = compare_report(FOLDER, name)
    assert all_same(report), report
