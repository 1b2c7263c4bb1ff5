"""Which of several equal keys ATen's CPU sorts and selections pick: libstdc++'s and ATen's algorithms, replayed.

Runtime layer, a kernel detail of sorting.py, selection_ops.py and extra_ops.py. ATen's unstable sort is
std::sort (introsort), its topk std::partial_sort (heap select) or std::nth_element (introselect) then std::sort,
its medians std::nth_element, its kthvalue the quickselect of Sedgewick's partition it carries from TH, and its
mode a std::sort of (value, index) pairs. None of these keeps equal keys in index order, but each is
deterministic, so for a row holding ties (equal numbers, -0.0 beside 0.0, several NaN) the index it returns and the
sign of zero it returns are those of the algorithm run step by step, which the functions below do (written from
the algorithms' descriptions; the callers keep numpy's fast path for rows without ties).

Every function works in place on `a`, a list of positions into the row, ordered by `less(i, j)` on positions.
"""
import numpy as np

THRESHOLD = 16  # libstdc++'s _S_threshold: introsort leaves runs this short to a final insertion sort


def order_keys(rows, descending=False):
    """Integer keys with ATen's sorting order: -0.0 equal to 0.0, every NaN equal and above every number (first
    when descending); a comparator on these is the one ATen's kernels pass to the std algorithms."""
    x = rows.astype(np.float64) if rows.dtype.kind == "f" or rows.dtype.itemsize < 8 else rows
    keys = np.unique(x + 0 if x.dtype.kind == "f" else x, return_inverse=True)[1].reshape(rows.shape)
    return -keys if descending else keys


def has_ties(sorted_keys):
    """For each row of keys sorted along the last axis: whether two of them are equal."""
    return (np.diff(sorted_keys, axis=-1) == 0).any(-1)


def by_key(keys):
    row = keys.tolist()
    return lambda i, j: row[i] < row[j]


# ---------------------------------------------------------------- insertion sort and introsort (std::sort)
def _linear_insert(a, i, less):
    """Move a[i] down past the larger elements before it (stops at the row's start: C++'s unguarded loop relies on
    a smaller element ahead, which a NaN under a plain `<` can deny)."""
    v, j = a[i], i - 1
    while j >= 0 and less(v, a[j]):
        a[j + 1] = a[j]
        j -= 1
    a[j + 1] = v


def insertion_sort(a, lo, hi, less):
    for i in range(lo + 1, hi):
        if less(a[i], a[lo]):
            a[lo:i + 1] = [a[i]] + a[lo:i]
        else:
            _linear_insert(a, i, less)


def _median_to_first(a, result, x, y, z, less):
    if less(a[x], a[y]):
        pick = y if less(a[y], a[z]) else z if less(a[x], a[z]) else x
    else:
        pick = x if less(a[x], a[z]) else z if less(a[y], a[z]) else y
    a[result], a[pick] = a[pick], a[result]


def _partition_pivot(a, lo, hi, less):
    """Median of three moved to a[lo], then Hoare's partition of a[lo+1:hi] around it: the cut."""
    _median_to_first(a, lo, lo + 1, lo + (hi - lo) // 2, hi - 1, less)
    first, last, pivot = lo + 1, hi, a[lo]
    while True:
        while less(a[first], pivot):
            first += 1
        last -= 1
        while less(pivot, a[last]):
            last -= 1
        if first >= last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def std_sort(a, lo, hi, less):
    def loop(lo, hi, depth):
        while hi - lo > THRESHOLD:
            if depth == 0:
                partial_sort(a, lo, hi, hi, less)
                return
            depth -= 1
            cut = _partition_pivot(a, lo, hi, less)
            loop(cut, hi, depth)
            hi = cut

    if hi - lo > 1:
        loop(lo, hi, 2 * ((hi - lo).bit_length() - 1))
        insertion_sort(a, lo, min(hi, lo + THRESHOLD), less)
        for i in range(lo + THRESHOLD, hi):
            _linear_insert(a, i, less)


# ---------------------------------------------------------------- heaps (std::partial_sort), introselect
def _adjust_heap(a, first, hole, length, value, less):
    top = child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole], hole = a[first + child], child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole], hole = a[first + child - 1], child - 1
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole], hole = a[first + parent], parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _pop_heap(a, first, last, result, less):
    value, a[result] = a[result], a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _heap_select(a, first, middle, last, less):
    length = middle - first
    for parent in range((length - 2) // 2, -1, -1) if length > 1 else ():
        _adjust_heap(a, first, parent, length, a[first + parent], less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)


def partial_sort(a, first, middle, last, less):
    _heap_select(a, first, middle, last, less)
    while middle - first > 1:
        middle -= 1
        _pop_heap(a, first, middle, middle, less)


def nth_element(a, first, nth, last, less):
    if first == last or nth == last:
        return
    depth = 2 * ((last - first).bit_length() - 1)
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, less)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        first, last = (cut, last) if cut <= nth else (first, cut)
    insertion_sort(a, first, last, less)


# ---------------------------------------------------------------- ATen's own
def quick_select(a, k, greater):
    """ATen's kthvalue: after it, a[k] is the k-th smallest (0-based) by `greater` (NaN the largest)."""
    def swap(i, j):
        a[i], a[j] = a[j], a[i]

    lo, hi = 0, len(a) - 1
    while hi > lo:
        if hi == lo + 1:
            if greater(a[lo], a[hi]):
                swap(lo, hi)
            return
        swap((lo + hi) >> 1, lo + 1)
        for x, y in ((lo + 1, hi), (lo, hi), (lo + 1, lo)):
            if greater(a[x], a[y]):
                swap(x, y)
        i, j, pivot = lo + 1, hi, a[lo]
        while True:
            i += 1
            while greater(pivot, a[i]):
                i += 1
            j -= 1
            while greater(a[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1


def mode_of(row):
    """ATen's mode of one row: std::sort of (value, index) pairs by value under a plain `<` (NaN equal to
    nothing), then the first longest run of equal values; its value and index are the run's last pair's."""
    values = (row.astype(np.float64) if row.dtype.kind in "fV" else row).tolist()  # (bfloat16's kind is V)
    a = list(range(len(values)))
    std_sort(a, 0, len(a), lambda i, j: values[i] < values[j])
    best, run = 0, 0
    for n, i in enumerate(a):
        run += 1
        if n == len(a) - 1 or values[i] != values[a[n + 1]]:
            if run > best:
                best, chosen = run, i
            run = 0
    return row[chosen], chosen


def unique_rows(flat):
    """ATen's unique(dim=...) of the rows of a 2-D array: std::sort of the row numbers by a lexicographic `<`
    (a column where neither row is below the other, NaN's, counts as equal), then the first row of each run of
    rows equal elementwise (a NaN equals nothing). Returns the kept row numbers, inverse and counts."""
    rows = (flat.astype(np.float64) if flat.dtype.kind in "fV" else flat).tolist()

    def less(i, j):
        for p, q in zip(rows[i], rows[j]):
            if p < q:
                return True
            if p > q:
                return False
        return False

    a = list(range(len(rows)))
    std_sort(a, 0, len(a), less)
    kept, counts, inverse, first = [a[0]], [], np.zeros(len(a), np.int64), 0
    for n, i in enumerate(a[1:], 1):
        if not all(p == q for p, q in zip(rows[i], rows[kept[-1]])):
            kept.append(i)
            counts.append(n - first)
            first = n
        inverse[i] = len(kept) - 1
    return kept, inverse, np.array(counts + [len(a) - first], np.int64)
