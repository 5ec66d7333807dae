"""Atomic reads and writes of a table's 32-bit words, for compiled code.

Several threads share one transposition table in ``solver.shared``: a
thread claims an empty slot with a compare-and-swap on its first word,
writes the slot's other words, and only then publishes the first word with
a release store; readers load the first word with acquire order. So a
reader never compares a key against a half-written slot, and two writers
never write one slot. A thread marks a slot finished with an atomic or.
numba has no atomics for CPU arrays, hence these four
LLVM instructions as intrinsics (on x86-64 the loads and stores are plain
moves that the compiler may not reorder; the swap is ``lock cmpxchg``).
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _slot_word(context, builder, sig, args):
    """LLVM pointer to ``table[i, j]`` (a 2-D array, no wraparound)."""
    aryty = sig.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    i = context.cast(builder, args[1], sig.args[1], types.intp)
    j = context.cast(builder, args[2], sig.args[2], types.intp)
    return cgutils.get_item_pointer(context, builder, aryty, ary, [i, j], wraparound=False)


@intrinsic
def cas_u32(_typingctx, table, i, j, expected, new):
    """``table[i, j] = new`` if it holds ``expected``, atomically; returns the
    word found (``expected`` exactly when the swap was made)."""
    sig = types.uint32(table, i, j, types.uint32, types.uint32)

    def codegen(context, builder, sig, args):
        ptr = _slot_word(context, builder, sig, args)
        res = builder.cmpxchg(ptr, args[3], args[4], "seq_cst", "seq_cst")
        return builder.extract_value(res, 0)

    return sig, codegen


@intrinsic
def load_acquire_u32(_typingctx, table, i, j):
    """``table[i, j]``, read before any later read of this thread."""
    sig = types.uint32(table, i, j)

    def codegen(context, builder, sig, args):
        return builder.load_atomic(_slot_word(context, builder, sig, args), "acquire", 4)

    return sig, codegen


@intrinsic
def store_release_u32(_typingctx, table, i, j, value):
    """``table[i, j] = value``, written after every earlier write of this thread."""
    sig = types.void(table, i, j, types.uint32)

    def codegen(context, builder, sig, args):
        builder.store_atomic(args[3], _slot_word(context, builder, sig, args), "release", 4)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def or_u32(_typingctx, table, i, j, value):
    """``table[i, j] |= value``, atomically."""
    sig = types.void(table, i, j, types.uint32)

    def codegen(context, builder, sig, args):
        builder.atomic_rmw("or", _slot_word(context, builder, sig, args), args[3], "seq_cst")
        return context.get_dummy_value()

    return sig, codegen
