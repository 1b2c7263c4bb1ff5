"""The files of the backend's on-disk caches: who may have written them, how they are written, how many
are kept (plays the checks ssh and pip make of their own directories, and a size-capped LRU).

Machinery beside the pipeline, used by `cache.py` (compiled graphs) and
`codegen/llvm.py` (kernel object files). What those caches hold runs: a graph
entry's wrapper source is exec'd and an object file's machine code is called.
So an entry is trusted only as far as the directories and the file it sits in
are: a cache directory, its subdirectories and its files must be owned by the
user running the process and writable by nobody else (no group or other write
bit). Anything else is not read, not written, warned about once, and the
graph or kernel is compiled afresh.

    read(root, path)              bytes, or None (missing, or not trusted); marks the file recently used
    write(root, path, data, cap)  atomically (temp file + rename), in directories made 0700;
                                  then, once the bytes written may pass `cap`, evicts least recently used
                                  files (oldest modification time) until the cache is under 3/4 of it

On a platform without POSIX owners (Windows) the ownership checks are skipped.
"""
import os
import stat
import tempfile
import threading
import warnings

_warned = set()  # cache roots already warned about
_estimated_bytes = {}  # root -> its size at the last scan plus what this process wrote since
_lock = threading.Lock()


def _new_lock():
    global _lock
    _lock = threading.Lock()  # a forked child: another thread may have held it (evicting) at the fork


os.register_at_fork(after_in_child=_new_lock)


def untrusted_reason(path):
    """Why path (a directory or file) must not be trusted, or None. Owner and write bits, as ssh checks."""
    try:
        info = os.stat(path)
    except OSError as error:
        return f"cannot stat it ({error.strerror})"
    return _reason(info)


def _reason(info):
    if not hasattr(os, "getuid"):
        return None
    if info.st_uid != os.getuid():
        return f"owned by uid {info.st_uid}, not by this user (uid {os.getuid()})"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"writable by group or others (mode {stat.filemode(info.st_mode)})"
    return None


def _refuse(root, path, reason):
    """Warn (once per cache) that path is not trusted; False."""
    with _lock:
        first = root not in _warned
        _warned.add(root)
    if first:
        warnings.warn(f"backend: not using the cache {root}: {path} is {reason}; compiling afresh "
                      f"(remove it, or make it private: chmod -R go-w {root})", RuntimeWarning, stacklevel=4)
    return False


def _folders(root, path):
    """root and each directory below it down to path's, outermost first."""
    root, folder = os.path.abspath(root), os.path.dirname(os.path.abspath(path))
    chain = [folder]
    while folder != root and os.path.dirname(folder) != folder:
        folder = os.path.dirname(folder)
        chain.append(folder)
    return chain[::-1]


def _trusted_dirs(root, path):
    """True if root and every directory between it and path exist and are trusted (warning once if not)."""
    for folder in _folders(root, path):
        if not os.path.isdir(folder):
            return False  # nothing stored there yet
        reason = untrusted_reason(folder)
        if reason is not None:
            return _refuse(root, folder, reason)
    return True


def read(root, path):
    """The file's bytes, or None when it is missing or not trusted."""
    if not _trusted_dirs(root, path):
        return None
    try:
        with open(path, "rb") as f:
            reason = _reason(os.fstat(f.fileno()))  # of the file opened, not of whatever the name means later
            if reason is not None:
                _refuse(root, path, reason)
                return None
            data = f.read()
        os.utime(path)  # recently used: evicted last
    except OSError:
        return None
    return data


def _make_private_dirs(folder):
    """Create folder, and its missing parents, with mode 0700 (whatever the umask would allow)."""
    missing = []
    while not os.path.isdir(folder) and os.path.dirname(folder) != folder:
        missing.append(folder)
        folder = os.path.dirname(folder)
    for folder in reversed(missing):
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass


def write(root, path, data, max_bytes):
    """Store data at path (atomically: other processes may read the same cache); False if not stored."""
    folder = os.path.dirname(path)
    try:
        _make_private_dirs(folder)
        if not _trusted_dirs(root, path):
            return False
        with tempfile.NamedTemporaryFile(dir=folder, delete=False, suffix=".tmp") as f:  # mode 0600
            f.write(data)
        os.replace(f.name, path)
    except OSError:
        return False  # a read-only or full cache directory only costs the next process a compile
    _account(root, len(data), max_bytes)
    return True


def _account(root, nbytes, max_bytes):
    with _lock:
        if root not in _estimated_bytes:
            _estimated_bytes[root] = cache_bytes(root)
        else:
            _estimated_bytes[root] += nbytes
        if max_bytes is None or _estimated_bytes[root] <= max_bytes:
            return
        _estimated_bytes[root] = evict(root, max_bytes * 3 // 4)


def _files(root):
    """(modification time, size, path) of every file under root."""
    found = []
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            try:
                info = os.stat(path)
            except OSError:  # removed meanwhile by another process
                continue
            found.append((info.st_mtime, info.st_size, path))
    return found


def cache_bytes(root):
    return sum(size for _, size, _ in _files(root))


def evict(root, keep_bytes):
    """Remove the least recently used files until at most keep_bytes remain; the bytes that remain."""
    files = sorted(_files(root))
    total = sum(size for _, size, _ in files)
    for _, size, path in files:
        if total <= keep_bytes:
            break
        try:
            os.remove(path)
        except OSError:
            continue
        total -= size
    return total
