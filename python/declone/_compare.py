"""Runs and their comparison for live verification (_verify.py): copies of values, one run of
a callable on copies of its inputs, and the differences between two runs in `declone verify`'s
words (lib/runtime/Verify.cpp): values (a NaN equals any NaN, 0 and -0 differ), sizes, strides,
storage offsets, final inputs, and which outputs share storage with inputs or each other.
"""

import copy
import math

import torch
import torch.utils._pytree as pytree

# --- values ----------------------------------------------------------------------------------

def _storage(tensor):
    return tensor.untyped_storage() if hasattr(tensor, "untyped_storage") else tensor.storage()


def storage_key(value):
    """The identity of a tensor's storage (its StorageImpl), or None for a value without one."""
    if not isinstance(value, torch.Tensor) or value.layout != torch.strided:
        return None
    try:
        return _storage(value)._cdata
    except (RuntimeError, NotImplementedError):
        return None


def copy_value(value):
    """A copy: a tensor with a storage of its own holding the same bytes, and the same sizes,
    strides and storage offset; anything else deep-copied."""
    if not isinstance(value, torch.Tensor):
        return copy.deepcopy(value)
    if value.layout != torch.strided or value.is_quantized:
        return value.clone()
    out = torch.empty(0, dtype=value.dtype, device=value.device)
    out.set_(_storage(value).clone(), value.storage_offset(), value.size(), value.stride())
    if value.is_conj():
        out = out.conj()
    if value.is_neg():
        out = out._neg_view()
    return out


def flatten(value):
    """The leaves of a graph's output (tuples, lists and dicts opened), in order."""
    return pytree.tree_flatten(value)[0]


class Run:
    """One execution: ``inputs`` as it left them, its ``outputs`` (flattened), and the module
    ``attributes`` it read, by target, as it left them."""

    def __init__(self, inputs, outputs, attributes=None):
        self.inputs, self.outputs = list(inputs), list(outputs)
        self.attributes = dict(attributes or {})


def run_callable(function, inputs, seed=0):
    """Runs ``function`` (a GraphModule) on copies of ``inputs`` with the random generator
    seeded and autograd off."""
    copies = [copy_value(value) for value in inputs]
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        with torch.no_grad():
            outputs = flatten(function(*copies))
    return Run(copies, outputs)


# --- comparing -------------------------------------------------------------------------------

def _tuple(values):
    return str(tuple(int(v) for v in values))


def _dtype_name(dtype):
    return str(dtype).replace("torch.", "")


def _compare_metadata(label, a, b):
    """None when the dtype, device, sizes, strides, storage offset and conjugate and negative
    bits of ``a`` (after) and ``b`` (before) are equal, else ``LABEL: what (after) != (before)``."""
    if a.dtype != b.dtype:
        return f"{label}: dtype {_dtype_name(a.dtype)} != {_dtype_name(b.dtype)}"
    if a.device != b.device:
        return f"{label}: device {a.device} != {b.device}"
    if a.shape != b.shape:
        return f"{label}: size {_tuple(a.shape)} != {_tuple(b.shape)}"
    if a.layout == torch.strided:
        if a.stride() != b.stride():
            return f"{label}: stride {_tuple(a.stride())} != {_tuple(b.stride())}"
        if a.storage_offset() != b.storage_offset():
            return f"{label}: storage offset {a.storage_offset()} != {b.storage_offset()}"
    for bit, name in ((torch.Tensor.is_conj, "conj bit"), (torch.Tensor.is_neg, "neg bit")):
        if bit(a) != bit(b):
            return f"{label}: {name} {str(bit(a)).lower()} != {str(bit(b)).lower()}"
    return None


def _is_floating(dtype):
    return dtype.is_floating_point or dtype.is_complex


def _resolved(tensor):
    return tensor.resolve_conj().resolve_neg()


def _as_double(tensor):
    """Real numbers as float64 (which holds every value of the narrower types, signed zeros and
    NaNs included); complex ones as their real and imaginary parts, in a last dimension of 2."""
    tensor = _resolved(tensor)
    if tensor.dtype.is_complex:
        return torch.view_as_real(tensor.to(torch.complex128))
    return tensor.to(torch.float64)


def _signed_zero_difference(label, a, b):
    x, y = _as_double(a).reshape(-1), _as_double(b).reshape(-1)
    differ = (x == 0) & (y == 0) & (torch.signbit(x) != torch.signbit(y))
    where = torch.nonzero(differ)
    if where.numel() == 0:
        return None
    flat = int(where[0][0])

    def zero(values):
        return "-0" if bool(torch.signbit(values[flat])) else "0"

    complex_ = a.dtype.is_complex
    part = "" if not complex_ else " in the imaginary part" if flat % 2 else " in the real part"
    index = flat // 2 if complex_ else flat
    return f"{label}: values differ ({zero(x)} != {zero(y)}{part} at flat index {index})"


def _tolerance(dtype, exact):
    if exact:
        return 0.0
    if dtype in (torch.float64, torch.complex128):
        return 1e-12
    if dtype in (torch.float32, torch.complex64):
        return 1e-5
    return 1e-2


def _scalar_differs(a, b):
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return False
        return a != b or math.copysign(1, a) != math.copysign(1, b)
    try:
        return bool(a != b)
    except Exception:  # noqa: BLE001: values that do not compare are not told apart
        return False


def compare_values(label, after, before, compared=None, exact=False):
    """None when equal, else ``LABEL: what (after) != (before)``. With ``compared``, a bool
    tensor of their sizes, only the elements it marks are compared by value. Floating values
    compare within a small tolerance for their dtype (``exact``: none), a NaN equal to any NaN,
    and 0 and -0 differ."""
    if isinstance(after, torch.Tensor) != isinstance(before, torch.Tensor):
        return f"{label}: a tensor on one side only"
    if not isinstance(after, torch.Tensor):
        return f"{label}: {after!r} != {before!r}" if _scalar_differs(after, before) else None
    a, b = after, before
    if a.layout != b.layout:
        return f"{label}: layout {a.layout} != {b.layout}"
    if a.layout != torch.strided and a.shape == b.shape:
        # A sparse tensor has no strides or offset of its own: its values are compared dense.
        a, b = a.to_dense(), b.to_dense()
    difference = _compare_metadata(label, a, b)
    if difference:
        return difference
    if compared is None and _bitwise_equal(a, b):
        return None
    if a.device.type != "cpu":
        a, b = a.cpu(), b.cpu()
    a, b = _resolved(a), _resolved(b)
    if compared is not None:
        # The others become equal zeros (the bits were compared above).
        a = a.masked_fill(compared.logical_not(), 0)
        b = b.masked_fill(compared.logical_not(), 0)
    if not _is_floating(a.dtype):
        return None if torch.equal(a, b) else _largest_difference(label, a, b)
    tolerance = _tolerance(a.dtype, exact)
    wide = torch.complex128 if a.dtype.is_complex else torch.float64
    if torch.allclose(a.to(wide), b.to(wide), rtol=tolerance, atol=tolerance, equal_nan=True):
        return _signed_zero_difference(label, a, b)
    return _largest_difference(label, a, b)


def _largest_difference(label, a, b):
    wide = torch.complex128 if a.dtype.is_complex else torch.float64
    difference = (a.to(wide) - b.to(wide)).abs().nan_to_num(1e300).reshape(-1)
    # NaN on one side only is a difference as large as any.
    nan = torch.isnan(a.to(wide)).reshape(-1) != torch.isnan(b.to(wide)).reshape(-1)
    difference = difference.masked_fill(nan, 1e300)
    flat = int(difference.argmax()) if difference.numel() else 0
    largest = float(difference[flat]) if difference.numel() else 0.0
    return f"{label}: values differ (largest difference {largest:g} at flat index {flat})"


_SAME_SIZE_INTEGERS = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def _bitwise_equal(a, b):
    """Whether two strided tensors of the same dtype and sizes hold the same bits (then they are
    equal by any measure, signed zeros and NaNs included): the quick answer for most values."""
    if a.layout != torch.strided or b.layout != torch.strided or a.dtype != b.dtype \
            or a.shape != b.shape or a.is_conj() != b.is_conj() or a.is_neg() != b.is_neg():
        return False
    if a.dtype.is_complex:
        a, b = torch.view_as_real(a), torch.view_as_real(b)
    bits = _SAME_SIZE_INTEGERS.get(a.element_size())
    try:
        if bits is not None and a.dtype != bits:
            a, b = a.view(bits), b.view(bits)
        return torch.equal(a, b)
    except (RuntimeError, TypeError):
        return False


def _same_in_both_fills(zeros, ones):
    """Which elements of a value are the same in the runs with the two fills of uninitialized
    memory: those that do not come from it."""
    if zeros.dtype != ones.dtype or zeros.shape != ones.shape:
        return torch.zeros(zeros.shape, dtype=torch.bool)
    if _bitwise_equal(zeros, ones):
        return torch.ones(zeros.shape, dtype=torch.bool)
    a, b = _resolved(zeros).cpu(), _resolved(ones).cpu()
    if a.layout != torch.strided:
        a, b = a.to_dense(), b.to_dense()
    if not _is_floating(a.dtype):
        return a == b
    x, y = _as_double(a), _as_double(b)
    same = ((x == y) & (torch.signbit(x) == torch.signbit(y))) | (torch.isnan(x) & torch.isnan(y))
    return same.all(-1) if a.dtype.is_complex else same


class _Comparison:
    """Compares one run of the rewrite with one of the original (``zeros``), or, when either
    leaves memory uninitialized, two of each (``ones``: the other fill), as verify's
    compareRuns does; notes go to ``notes``."""

    def __init__(self, exact=False, before_sources="", after_sources=""):
        self.exact, self.notes = exact, []
        self.before_sources, self.after_sources = before_sources, after_sources

    def note(self, label, text):
        if not any(n.startswith(label + " ") or n.startswith(label + ":") for n in self.notes):
            self.notes.append(text)

    def __call__(self, label, after, before, after_ones=None, before_ones=None):
        if after_ones is None or before_ones is None:
            return compare_values(label, after, before, exact=self.exact)
        tensors = (after, before, after_ones, before_ones)
        if not all(isinstance(value, torch.Tensor) for value in tensors):
            def varies(value, other):  # a number computed from uninitialized memory
                return not isinstance(value, torch.Tensor) and \
                    not isinstance(other, torch.Tensor) and _scalar_differs(value, other)

            if varies(before, before_ones):
                self.note(label, f"{label} not compared: its value comes from uninitialized "
                          f"memory ({self.before_sources})")
                return None
            if varies(after, after_ones):
                return (f"{label}: its value comes from uninitialized memory "
                        f"({self.after_sources}), where the original's does not")
            return compare_values(label, after, before, exact=self.exact)
        difference = (_compare_metadata(label, after, before)
                      or _compare_metadata(label, after_ones, before_ones))
        if difference:
            return difference
        determined = _same_in_both_fills(before, before_ones)
        lost = determined & _same_in_both_fills(after, after_ones).logical_not()
        lost_count = int(lost.sum())
        if lost_count:
            first = int(torch.nonzero(lost.reshape(-1))[0][0])
            return (f"{label}: {lost_count} of {before.numel()} elements come from uninitialized "
                    f"memory ({self.after_sources}), where the original's do not (first at flat "
                    f"index {first})")
        compared = int(determined.sum())
        if compared == before.numel():
            return compare_values(label, after, before, exact=self.exact)
        if compared == 0:
            self.note(label, f"{label} compared by metadata only: its values come from "
                      f"uninitialized memory ({self.before_sources})")
        else:
            self.note(label, f"{label}: values compared at {compared} of {before.numel()} "
                      f"elements; the others come from uninitialized memory "
                      f"({self.before_sources})")
        return compare_values(label, after, before, compared=determined, exact=self.exact)


def _aliasing_difference(after, before, donated, input_names):
    """Which outputs share storage with which inputs the caller keeps (and attributes) and with
    each other; the first output whose answer differs, as verify's compareAliasing says it."""

    def keeps(run):
        values = [None if i in donated else value for i, value in enumerate(run.inputs)]
        return [storage_key(value) for value in values + list(run.attributes.values())]

    def aliases(value, storages, skip=None):
        key = storage_key(value)
        if key is None:
            return []
        return [i for i, other in enumerate(storages) if i != skip and other == key]

    def describe(indices, what=None):
        names = [f"{what} {i}" if what else input_names[i] for i in indices]
        return ", ".join(names) or "nothing"

    after_inputs, before_inputs = keeps(after), keeps(before)
    after_outputs = [storage_key(value) for value in after.outputs]
    before_outputs = [storage_key(value) for value in before.outputs]
    for i, (a, b) in enumerate(zip(after.outputs, before.outputs)):
        x, y = aliases(a, after_inputs), aliases(b, before_inputs)
        if x != y:
            return f"output {i}: aliases {describe(x)} != {describe(y)}"
        x, y = aliases(a, after_outputs, i), aliases(b, before_outputs, i)
        if x != y:
            return f"output {i}: aliases {describe(x, 'output')} != {describe(y, 'output')}"
    return None


def differences(before, after, donated=(), *, exact=False, aliasing=True, every=False,
                before_ones=None, after_ones=None, input_names=None, comparison=None):
    """What differs between two Runs of programs on copies of the same inputs, as ``declone
    verify`` says it: every output's values, sizes, strides and storage offset; the final
    contents of every input not ``donated`` and of every attribute; which outputs alias inputs
    or each other. The first difference, or with ``every`` all of them (one per value). With
    ``before_ones`` and ``after_ones`` (the runs with the other fill of uninitialized memory),
    values taken from such memory are compared by metadata only."""
    donated = set(donated)
    compare = comparison or _Comparison(exact)
    found = []

    def add(difference):
        if difference:
            found.append(difference)
        return found and not every

    if len(after.outputs) != len(before.outputs):
        return [f"outputs: {len(after.outputs)} != {len(before.outputs)}"]

    def ones(run, part, key):
        return None if run is None else getattr(run, part)[key]

    for i, (a, b) in enumerate(zip(after.outputs, before.outputs)):
        if add(compare(f"output {i}", a, b, ones(after_ones, "outputs", i),
                       ones(before_ones, "outputs", i))):
            return found
    names = list(input_names or [f"input {i}" for i in range(len(before.inputs))])
    for i, (a, b) in enumerate(zip(after.inputs, before.inputs)):
        if i in donated:
            continue  # the caller does not look at a donated input again
        difference = compare(names[i], a, b, ones(after_ones, "inputs", i),
                             ones(before_ones, "inputs", i))
        if add(difference and difference + " after the call"):
            return found
    for target, b in before.attributes.items():
        a = after.attributes.get(target)
        difference = compare(f"attribute self.{target}", a, b,
                             ones(after_ones, "attributes", target),
                             ones(before_ones, "attributes", target))
        if add(difference and difference + " after the call"):
            return found
    if aliasing:
        inputs = [f"input {i}" for i in range(len(before.inputs))]
        inputs += [f"attribute self.{target}" for target in before.attributes]
        add(_aliasing_difference(after, before, donated, inputs))
    return found
