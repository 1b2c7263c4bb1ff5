"""The sixteenth batch of Dynamo-style programs, first half, aimed at the CPython suites Dynamo runs under itself
(test/dynamo/cpython/3_13) that batches 1-15 left alone: test_heapq.py (heappush/heappop order, heapify, nlargest
and nsmallest with keys, heapreplace and heappushpop, merge of sorted runs), test_bisect.py (the key= and lo/hi
arguments; batch 7 has bisect_left/right and insort), test_sort.py (stability, key and reverse together,
sorting tuples, a list sorted in place while read), test_userdict.py and test_userlist.py (UserDict and UserList
subclasses overriding a method, their .data), test_copy.py (copy.copy and copy.deepcopy of nested containers and
user objects, __copy__), test_str.py / test_string.py (partition, split with maxsplit, strip of a set of chars,
zfill, center, count, replace with a count, the string module's constants) and test_bool.py / test_int.py /
test_float.py (bool arithmetic, int.bit_count and to_bytes, float.is_integer and hex round trips). Each program
takes two (3,) float tensors `a`, `b`; test_dynamo_tests_ported_9on.py runs it under torch.compile and
minitorch2.compile and compares values and (frames, ops, graph breaks). Our own programs; the names given to exec
are `torch`, `nn`, `F` and `dynamo`.
"""

PORTED_SRC = r'''
import bisect
import collections
import copy
import heapq
import string

# ---- heapq (cpython test_heapq.py)
def hq16_push_pop_gives_sorted_order(a, b):
    heap = []
    for v in (5, 1, 4, 2, 3):
        heapq.heappush(heap, v)
    popped = [heapq.heappop(heap) for _ in range(3)]
    return a * popped[0] + b * popped[2] + len(heap)
def hq16_heapify_in_place(a, b):
    xs = [9, 3, 7, 1]
    heapq.heapify(xs)
    return a * xs[0] + b * len(xs)
def hq16_nlargest_with_key(a, b):
    items = [(1, "p"), (4, "q"), (2, "r"), (3, "s")]
    top = heapq.nlargest(2, items, key=lambda kv: kv[0])
    return a * top[0][0] + b * top[1][0]
def hq16_nsmallest_of_floats(a, b):
    low = heapq.nsmallest(2, [2.5, -1.0, 0.5, 3.0])
    return a * low[0] + b * low[1]
def hq16_heapreplace_and_pushpop(a, b):
    heap = [1, 3, 5]
    out = heapq.heapreplace(heap, 4)
    smaller = heapq.heappushpop(heap, 0)
    return a * out + b * smaller + heap[0]
def hq16_merge_sorted_runs(a, b):
    merged = list(heapq.merge([1, 4, 7], [2, 5], [3]))
    return a * merged[2] + b * merged[-1] + len(merged)
def hq16_heap_of_tuples(a, b):
    heap = []
    heapq.heappush(heap, (2, "b"))
    heapq.heappush(heap, (1, "a"))
    key, name = heapq.heappop(heap)
    return (a if name == "a" else b) * key

# ---- bisect (cpython test_bisect.py)
def bs16_key_argument(a, b):
    rows = [("x", 1), ("y", 4), ("z", 9)]
    at = bisect.bisect(rows, 5, key=lambda r: r[1])
    return a * at + b
def bs16_lo_hi_bounds(a, b):
    xs = [0, 1, 2, 3, 4, 5]
    return a * bisect.bisect_left(xs, 4, 0, 3) + b * bisect.bisect_right(xs, 1, 2)

# ---- sorting (cpython test_sort.py)
def so16_sort_is_stable(a, b):
    pairs = [(1, "c"), (0, "a"), (1, "b"), (0, "d")]
    pairs.sort(key=lambda p: p[0])
    return a * (pairs[2][1] == "c") + b * (pairs[1][1] == "d")
def so16_key_and_reverse_together(a, b):
    words = sorted(["bb", "a", "ccc", "dd"], key=len, reverse=True)
    return a * len(words[0]) + b * (words[1] == "bb")
def so16_sorted_tuples_lexicographic(a, b):
    rows = sorted([(2, 1), (1, 5), (2, 0), (1, 2)])
    return a * rows[0][1] + b * rows[-1][1]
def so16_reverse_keeps_equal_keys_in_order(a, b):
    rows = [(1, "p"), (2, "q"), (1, "r"), (2, "s")]
    rows.sort(key=lambda r: r[0], reverse=True)
    return a * (rows[0][1] == "q") + b * (rows[3][1] == "r")
def so16_sorted_of_dict_items(a, b):
    d = {"w": 3, "u": 1, "v": 2}
    order = [k for k, _ in sorted(d.items(), key=lambda kv: kv[1])]
    return a * (order == ["u", "v", "w"]) + b

# ---- UserDict / UserList (cpython test_userdict.py, test_userlist.py)
class _LowerKeys(collections.UserDict):
    def __setitem__(self, key, value):
        super().__setitem__(key.lower(), value)
def ud16_userdict_subclass_setitem(a, b):
    d = _LowerKeys()
    d["Scale"] = 2
    d["SHIFT"] = 3
    return a * d["scale"] + b * d["shift"] + len(d)
def ud16_userdict_data_and_get(a, b):
    d = collections.UserDict({"k": 2})
    d.data["m"] = 5
    return a * d.get("m", 0) + b * d.get("absent", 4)
class _Doubling(collections.UserList):
    def append(self, item):
        super().append(item * 2)
def ul16_userlist_subclass_append(a, b):
    xs = _Doubling([1])
    xs.append(3)
    return a * xs[-1] + b * sum(xs.data)
def ul16_userlist_of_tensors(a, b):
    xs = collections.UserList([a, b])
    xs.append(a * b)
    return sum(xs[1:]) + len(xs)

# ---- copy (cpython test_copy.py)
def cp16_shallow_copy_shares_inner(a, b):
    outer = [[1, 2], [3]]
    shallow = copy.copy(outer)
    shallow[0].append(9)
    return a * len(outer[0]) + b * (shallow is not outer)
def cp16_deepcopy_separates_inner(a, b):
    outer = {"xs": [1, 2]}
    deep = copy.deepcopy(outer)
    deep["xs"].append(3)
    return a * len(outer["xs"]) + b * len(deep["xs"])
def cp16_deepcopy_keeps_shared_inner(a, b):
    inner = [1]
    copied = copy.deepcopy([inner, inner, (2, inner)])
    copied[0].append(5)
    return a * len(copied[1]) + b * len(copied[2][1]) + len(inner)
def cp16_deepcopy_of_tuple_of_constants(a, b):
    pair = (1, "x")
    return a * (copy.deepcopy(pair) == pair) + b * len(copy.deepcopy({"k": (1, 2)})["k"])
class _Point:
    def __init__(self, x):
        self.x = x
def cp16_copy_of_user_object(a, b):
    p = _Point(2)
    q = copy.copy(p)
    q.x = 5
    return a * p.x + b * q.x
class _Holder:
    def __init__(self, items):
        self.items = items
        self.scale = 2
def cp16_copy_of_user_object_is_shallow(a, b):
    original = _Holder([1])
    clone = copy.copy(original)
    clone.items.append(2)
    clone.scale = 5
    return a * len(original.items) + b * original.scale + clone.scale * (type(clone) is _Holder)
class _CopiesItself:
    def __init__(self, k):
        self.k = k
    def __copy__(self):
        return _CopiesItself(self.k * 10)
def cp16_copy_dunder_wins(a, b):
    return a * copy.copy(_CopiesItself(3)).k + b
def cp16_copy_list_of_tensors(a, b):
    xs = [a, b]
    ys = copy.copy(xs)
    ys.append(a + b)
    return ys[-1] * len(xs)

# ---- strings (cpython test_str.py, test_string.py)
def st16_partition_and_rpartition(a, b):
    head, sep, tail = "key=value=x".partition("=")
    rhead, _, rtail = "key=value=x".rpartition("=")
    return a * len(head) + b * len(rtail) + (sep == "=") + len(rhead)
def st16_split_with_maxsplit(a, b):
    parts = "a,b,c,d".split(",", 2)
    rparts = "a,b,c,d".rsplit(",", 1)
    return a * len(parts) + b * len(rparts[0])
def st16_strip_set_of_chars(a, b):
    s = "xxyhelloyx".strip("xy")
    return a * len(s) + b * (s == "hello")
def st16_zfill_center_ljust(a, b):
    return a * len("42".zfill(5)) + b * len("ab".center(7, "*")) + len("q".ljust(3))
def st16_count_and_replace_count(a, b):
    s = "abababa"
    return a * s.count("aba") + b * len(s.replace("a", "", 2))
def st16_string_module_constants(a, b):
    return a * len(string.digits) + b * (string.ascii_lowercase.index("e"))
def st16_find_vs_index_and_startswith_tuple(a, b):
    s = "tensorflow"
    return a * s.find("z") + b * s.index("flow") + s.startswith(("py", "ten"))
def st16_casefold_swapcase_title(a, b):
    return a * ("STRASSE".casefold() == "strasse") + b * ("hello world".title() == "Hello World")

# ---- bool / int / float (cpython test_bool.py, test_int.py, test_float.py)
def bo16_bool_arithmetic(a, b):
    n = True + True
    m = True * 3 - False
    return a * n + b * m + (True << 2)
def in16_bit_count_and_to_bytes(a, b):
    n = (13).bit_count()
    raw = (258).to_bytes(2, "big")
    return a * n + b * raw[0] + raw[1]
def in16_int_from_string_bases(a, b):
    return a * int("ff", 16) + b * int("0b101", 0) + int(" 7 ")
def fl16_float_methods(a, b):
    half = (2.5).is_integer()
    num, den = (0.75).as_integer_ratio()
    return a * num + b * den + half
def fl16_float_hex_round_trip(a, b):
    v = float.fromhex((1.5).hex())
    return a * v + b
def in16_bytes_fromhex_breaks_at_the_call(a, b):
    raw = bytes.fromhex("0102")
    return a * raw[1] + b
def in16_int_from_bytes_classmethod(a, b):
    return a * int.from_bytes(b"\x01\x00", "little") + b * (7).__rsub__(10) + (2.6).__round__(0)
'''
