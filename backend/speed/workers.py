"""Worker threads that wait for kernel chunks by spinning in native code, as OpenMP's do.

Speed wing, under `parallel.py` (a kernel's range split into chunks) and
`blas.py` (a matmul split into BLAS calls). The calling thread posts
chunks 1.. to workers and runs chunk 0 itself; nothing of it runs Python.

The one idea to hold: handing work to a sleeping thread costs a wake-up (a
futex, and on a virtual machine an inter-processor interrupt: 25-50 us
measured here, as long as a 256x512x512 matmul's gain from a second core),
and a Python worker must then also take the GIL, which is a second wake-up.
So each worker is a Python thread that calls `serve` through ctypes (which
releases the GIL) and stays in native code: it polls its slot, runs what is
posted there (a function pointer and its integer arguments), and only after
`IDLE_SPIN_SECONDS` without work returns to Python to sleep on a condition.
A chunk posted to a spinning worker starts within a cache-line transfer.

    run_jobs([Job(kernel_address, args_for_chunk0), Job(kernel_address, args_for_chunk1)])

A Job calls `function(*args)` `count` times, adding `steps` to the arguments
after each call (a batched matmul walks its matrices that way). Functions take
only integer-class arguments (addresses, sizes), so the native trampoline
calls every one with MAX_ARGS of them: under the x86-64 and AArch64 calling
conventions the callee reads the arguments it declares and the caller pops
the rest.

The slot of a worker, int64 words: [posted, finished, function, count,
args[MAX_ARGS], steps[MAX_ARGS]]; `posted` and `finished` count jobs, so
the worker has one to run while they differ.
"""
import ctypes
import os
import sys
import threading
import time

import numpy as np

from ..codegen import llvm_jit
from . import kernel_cache

MAX_ARGS = 48
POSTED, FINISHED, JOB = 0, 1, 2  # word offsets in a slot; a job is [function, count, args, steps]
JOB_WORDS = 2 + 2 * MAX_ARGS
IDLE_SPIN_SECONDS = 0.002  # libgomp spins for a comparable time before it sleeps


class Job:
    """function(*args), `count` times, args += steps after each; `keep`: what the addresses point into."""

    def __init__(self, function, args, count=1, steps=(), keep=()):
        if len(args) > MAX_ARGS:
            raise ValueError(f"a job takes at most {MAX_ARGS} arguments, got {len(args)}")
        self.keep = keep
        self.words = np.zeros(JOB_WORDS, np.int64)
        self.words[0], self.words[1] = function, count
        self.words[2:2 + len(args)] = args
        self.words[2 + MAX_ARGS:2 + MAX_ARGS + len(steps)] = steps


def _native_source(triple):
    """LLVM IR of the trampoline, the worker's polling loop and the caller's wait."""
    pause = "call void @llvm.x86.sse2.pause()" if triple.startswith(("x86_64", "i686")) else ""
    declare_pause = "declare void @llvm.x86.sse2.pause()" if pause else ""
    loads, values, bumps = [], [], []
    for i in range(MAX_ARGS):
        loads.append(f"  %ap{i} = getelementptr inbounds i64, ptr %job, i64 {2 + i}\n"
                     f"  %a{i} = load i64, ptr %ap{i}, align 8\n"
                     f"  %sp{i} = getelementptr inbounds i64, ptr %job, i64 {2 + MAX_ARGS + i}\n"
                     f"  %s{i} = load i64, ptr %sp{i}, align 8")
        values.append(f"i64 %v{i}")
        bumps.append(f"  %v{i} = phi i64 [ %a{i}, %entry ], [ %w{i}, %body ]")
    steps = "\n".join(f"  %w{i} = add i64 %v{i}, %s{i}" for i in range(MAX_ARGS))

    def pause_block(since, budget, give_up):
        """Block `pause`: wait a moment, then poll again, or branch to give_up once `budget` cycles passed."""
        return (f"pause:\n  {pause}\n  %now = call i64 @llvm.readcyclecounter()\n  %spent = sub i64 %now, {since}\n"
                f"  %tired = icmp ugt i64 %spent, {budget}\n  br i1 %tired, label {give_up}, label %poll")
    return f"""
declare i64 @llvm.readcyclecounter()
{declare_pause}

define i64 @mt2_cycles() {{
  %now = call i64 @llvm.readcyclecounter()
  ret i64 %now
}}

define void @mt2_invoke(ptr %job) {{
entry:
  %function_bits = load i64, ptr %job, align 8
  %function = inttoptr i64 %function_bits to ptr
  %count_p = getelementptr inbounds i64, ptr %job, i64 1
  %count = load i64, ptr %count_p, align 8
{chr(10).join(loads)}
  %empty = icmp sle i64 %count, 0
  br i1 %empty, label %done, label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i_next, %body ]
{chr(10).join(bumps)}
  call void %function({", ".join(values)})
{steps}
  %i_next = add i64 %i, 1
  %more = icmp slt i64 %i_next, %count
  br i1 %more, label %body, label %done
done:
  ret void
}}

define void @mt2_serve(ptr %slot, i64 %idle_cycles) {{
entry:
  %finished_p = getelementptr inbounds i64, ptr %slot, i64 {FINISHED}
  %job = getelementptr inbounds i64, ptr %slot, i64 {JOB}
  %started = call i64 @llvm.readcyclecounter()
  br label %poll
poll:
  %idle_since = phi i64 [ %started, %entry ], [ %idle_since, %pause ], [ %ran_at, %run ]
  %posted = load atomic i64, ptr %slot acquire, align 8
  %finished = load i64, ptr %finished_p, align 8
  %has_job = icmp ne i64 %posted, %finished
  br i1 %has_job, label %run, label %pause
{pause_block("%idle_since", "%idle_cycles", "%done")}
run:
  call void @mt2_invoke(ptr %job)
  %next = add i64 %finished, 1
  store atomic i64 %next, ptr %finished_p release, align 8
  %ran_at = call i64 @llvm.readcyclecounter()
  br label %poll
done:
  ret void
}}

define i64 @mt2_wait(ptr %slot, i64 %target, i64 %max_cycles) {{
entry:
  %finished_p = getelementptr inbounds i64, ptr %slot, i64 {FINISHED}
  %started = call i64 @llvm.readcyclecounter()
  br label %poll
poll:
  %finished = load atomic i64, ptr %finished_p acquire, align 8
  %done = icmp eq i64 %finished, %target
  br i1 %done, label %yes, label %pause
{pause_block("%started", "%max_cycles", "%no")}
yes:
  ret i64 1
no:
  ret i64 0
}}

define void @mt2_publish(ptr %slot, i64 %posted) {{
  store atomic i64 %posted, ptr %slot release, align 8
  ret void
}}
"""


class Native:
    """The compiled trampoline, polling loop and wait, and the cycle counter's rate."""

    def __init__(self):
        source = _native_source(llvm_jit.host().triple)
        self._loaded = kernel_cache.load_function(source, "mt2_invoke")[0]  # keeps the code alive

        def function(name, result, *args):
            return ctypes.CFUNCTYPE(result, *args)(self._loaded.engine.get_function_address(name))

        pointer, i64 = ctypes.c_void_p, ctypes.c_int64
        self.cycles = function("mt2_cycles", i64)
        self.invoke = function("mt2_invoke", None, pointer)
        self.serve = function("mt2_serve", None, pointer, i64)
        self.wait = function("mt2_wait", i64, pointer, i64, i64)
        self.publish = function("mt2_publish", None, pointer, i64)
        self.cycles_per_second = self._measure_counter_rate()

    def _measure_counter_rate(self):
        began, counter = time.perf_counter(), self.cycles()
        while time.perf_counter() - began < 0.002:
            pass
        return (self.cycles() - counter) / (time.perf_counter() - began)


class Worker:
    """One thread and its slot. The thread sleeps on `wake` only after spinning idle in `serve`."""

    def __init__(self, native, index):
        self.native = native
        self.slot = np.zeros(JOB + JOB_WORDS, np.int64)
        self.address = self.slot.ctypes.data
        self.posted = 0
        self.sleeping = False
        self.wake = threading.Condition()
        self.idle_cycles = int(IDLE_SPIN_SECONDS * native.cycles_per_second)
        self.thread = threading.Thread(target=self._serve, name=f"minitorch2-kernel-{index}", daemon=True)
        self.thread.start()

    def _serve(self):
        sys.setprofile(None)  # a hook inherited from threading.setprofile (the frontend's capture) sees nothing here
        while True:
            self.native.serve(self.address, self.idle_cycles)
            with self.wake:
                self.sleeping = True
                while self.slot[POSTED] == self.slot[FINISHED]:
                    self.wake.wait()
                self.sleeping = False

    def post(self, job):
        self.slot[JOB:] = job.words
        self.posted += 1
        self.native.publish(self.address, self.posted)
        with self.wake:
            if self.sleeping:
                self.wake.notify()

    def join(self):
        while not self.native.wait(self.address, self.posted, self.idle_cycles):
            time.sleep(0)  # the worker has no core (or is waking up): let it have ours


_native = None
_workers = []
_lock = threading.Lock()
_posting = threading.Lock()  # one caller at a time owns the workers' slots


def _reset_after_fork():
    global _workers, _lock, _posting
    _workers = []  # the threads did not survive the fork, and a lock may have been held by one of them
    _lock, _posting = threading.Lock(), threading.Lock()


os.register_at_fork(after_in_child=_reset_after_fork)


def workers(count):
    """At least `count` started workers (created on first use, kept for the process)."""
    global _native
    with _lock:
        if _native is None:
            _native = Native()
        while len(_workers) < count:
            _workers.append(Worker(_native, len(_workers)))
        return _workers[:count]


def run_jobs(jobs):
    """Run jobs[0] on the calling thread and the others on workers; return when all are done."""
    helpers = workers(len(jobs) - 1)
    with _posting:
        for worker, job in zip(helpers, jobs[1:]):
            worker.post(job)
        _native.invoke(jobs[0].words.ctypes.data)
        for worker in helpers:
            worker.join()
