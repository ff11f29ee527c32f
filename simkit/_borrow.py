"""Array views that kernels pass down without counting references.

numba counts references to every array a jitted function receives: one atomic increment
on entry and a decrement on return, unless its pruning pass can prove the pair redundant,
which it mostly cannot across branches. An array that Python made (greedy's reach tables,
the batch's work records) carries a real count, so every level of a decision that passes
it on paid two atomic operations per array, and with two threads on two cores both
threads updated the same counter. In perf that was 8% of a Snow Tails race.

:func:`borrowed` returns a view of the same memory and of the same numba type with no
count attached (as a nested array of a record has none), so those calls cost a test of
a null pointer. The view does not keep its memory alive: borrow only from an array that
outlives every use of the view, in practice an argument of the kernel that borrows (the
caller holds it for the whole call), never from an array the kernel allocated itself.
"""

from __future__ import annotations

from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def _borrowed(typingctx, arr):
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):
        view = context.make_array(arr)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return arr(arr), codegen


def _same(arr):
    return arr


# ``arr`` as a view with no reference count (see the module docstring); the array itself
# where numba's JIT is off (NUMBA_DISABLE_JIT=1), since plain Python counts no references.
borrowed = _same if config.DISABLE_JIT else _borrowed
