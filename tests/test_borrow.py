"""simkit/_borrow.py: a borrowed view is the same memory and type, without a reference count."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from simkit._borrow import borrowed


@intrinsic
def _meminfo(typingctx, arr):
    """The address of an array's reference-counted memory record (0: none)."""

    def codegen(context, builder, signature, args):
        ary = context.make_array(arr)(context, builder, value=args[0])
        return builder.ptrtoint(ary.meminfo, context.get_value_type(types.intp))

    return types.intp(arr), codegen


@njit
def _counts(a):
    return _meminfo(a), _meminfo(borrowed(a))


@njit
def _write_through(a):
    v = borrowed(a)
    v[1] = 7.0
    return v.shape[0], v.sum()


def test_a_borrowed_view_has_no_reference_count():
    own, view = _counts(np.zeros(4))
    assert own != 0  # an array numpy made carries one
    assert view == 0


def test_a_borrowed_view_is_the_same_memory():
    a = np.arange(4.0)
    assert _write_through(a) == (4, 0.0 + 7.0 + 2.0 + 3.0)
    assert a[1] == 7.0


def test_a_borrowed_view_keeps_the_array_type():
    """Same numba type, so a kernel called with a view is not compiled a second time."""

    @njit
    def first(a):
        return a[0, 0]

    @njit
    def both(a):
        return first(a) + first(borrowed(a))

    assert both(np.ones((2, 3), dtype=np.int16)) == 2
    assert len(first.signatures) == 1
