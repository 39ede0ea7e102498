# SPDX-License-Identifier: Apache-2.0
"""Context (one velstatus_ctx, guarded by a lock) and the callback plumbing.

doc/conventions.md §7: cffi releases the GIL around every C call, so two Python threads
could otherwise be inside the library on the same ctx at once, which §2.7
forbids. Every C call that takes a ctx, or an object made from it, runs with
the Context's ``threading.Lock`` held.

A callback that calls back into the Context running it would deadlock on that
lock (and the library forbids re-entering a ctx anyway), so the guard detects
it and raises StateError inside the callback, which then surfaces from the
outer call like any other exception raised by a callback.
"""

import threading
from typing import Optional

from ._errors import StateError, check, error_from, new_error
from ._ffi import ffi, lib

__all__ = ["Context", "DebugAllocator"]


class _Closeable:
    """`with` support for objects that own C memory: ``__exit__`` calls the
    object's idempotent close(). Garbage collection frees them too: their C
    pointers are ``ffi.gc`` pointers, and close() is ``ffi.release``."""

    __slots__ = ()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Call(tuple):
    """``_Call((fn, a, b))(p)`` is ``fn(a, b, p)``: the destructor of an ``ffi.gc``
    pointer. A tuple, because the garbage collector never clears a tuple (it
    has no tp_clear), so what a destructor needs stays reachable while it can
    still run."""

    __slots__ = ()

    def __call__(self, p):
        self[0](*self[1:], p)


# (free function, pointer C type) of the objects made from a context, by index.
_FREES = []
_FREE_INDEX = {}


def _free_index(free_fn, ctype):
    key = (free_fn, ctype)
    if key not in _FREE_INDEX:
        _FREE_INDEX[key] = len(_FREES)
        _FREES.append(key)
    return _FREE_INDEX[key]


def _free_entry(index, address):
    free_fn, ctype = _FREES[index]
    free_fn(ffi.cast(ctype, address))


def _ctx_free(live, keep, p):
    """Frees the C context, after whatever made from it is still allocated.

    When a garbage cycle holds a Context and objects made from it, the
    collector runs their ``ffi.gc`` destructors in any order, the C context's
    possibly first: those objects are then freed here, newest first, and their
    own destructors find nothing left to free. ``keep`` (the allocator, its
    handle and the blocks the C memory lives in) outlives the call."""
    while live:
        address, index = live.popitem()
        _free_entry(index, address)
    lib.velstatus_ctx_free(p)


def _dispose(ref, lock, live, address, p):
    """Frees ``p`` (made from the context) under the context's lock, unless
    the context's own destructor already did."""
    index = live.pop(address, None)
    if index is None:
        return
    free_fn = _FREES[index][0]
    pending = getattr(ref, "pending", None)
    if getattr(ref, "owner", None) == threading.get_ident() and pending is not None:
        # Garbage collection ran a destructor during a C call on this very
        # context (from inside a callback): defer until the call returns.
        pending.append((free_fn, p))
        return
    with lock:
        free_fn(p)


class _CtxRef:
    """The C context, its lock, and the frees deferred while it runs.

    Whatever needs the C context holds this object: the Context until its
    close(), and every object made from it through the ``ffi.gc`` destructor
    of its own pointer (``own()``). Python's reference counting is the only
    count: the C context is freed (``ffi.gc`` of ``velstatus_ctx_free``) when
    the last holder is gone, after every object made from it was freed. A
    garbage cycle may run those destructors in any order; ``live`` (the
    objects made from the context and not yet freed, by address: a dict of
    ints, which the collector never tracks or clears) keeps the order right.
    """

    __slots__ = ("ptr", "lock", "owner", "pending", "live", "__weakref__")

    def __init__(self, ptr, keep):
        self.lock = threading.Lock()
        self.owner = None
        self.pending = []
        self.live = {}
        self.ptr = ffi.gc(ptr, _Call((_ctx_free, self.live, keep)))

    def own(self, ptr, free_fn):
        """``ptr`` (made from this context) as an ``ffi.gc`` pointer whose
        destructor frees it with ``free_fn`` under the lock; ``ffi.release``
        of it frees it now."""
        address = int(ffi.cast("uintptr_t", ptr))
        self.live[address] = _free_index(free_fn, ffi.typeof(ptr))
        return ffi.gc(ptr, _Call((_dispose, self, self.lock, self.live, address)))

    def held(self):
        """``with ref.held() as p:`` runs a C call on ``p`` (the ctx) under the lock."""
        return _Held(self)


class Context(_Closeable):
    """A libvelstatus context: the allocator (libc's) and nothing else global.

    Distinct Contexts may be used from different threads concurrently; one
    Context serialises its calls with a lock, so sharing one between threads
    is safe too (calls simply wait for each other). Objects made from a
    Context (a Tracker, ...) keep the C context alive, share its lock, and
    keep working after ``close()``; the C context is freed when the Context
    and every object made from it are gone. Usable as a context manager.
    """

    __slots__ = ("_ref", "_allocator", "__weakref__")

    def __init__(self, allocator: Optional["DebugAllocator"] = None) -> None:
        """``allocator``: None for the C library's malloc, or a DebugAllocator."""
        self._ref = None
        self._allocator = allocator
        out = ffi.new("velstatus_ctx **")
        err = new_error()
        calloc, keep = ffi.NULL, None
        if allocator is not None:
            if not isinstance(allocator, DebugAllocator):
                raise TypeError("allocator must be a DebugAllocator or None")
            calloc, handle = allocator._vtable()
            # The hooks, and the blocks the C memory lives in (kept apart: a
            # collector may clear the allocator's own attributes), outlive
            # velstatus_ctx_free.
            keep = (allocator, handle, allocator.blocks)
        check(lib.velstatus_ctx_new(out, calloc, err), err)
        self._ref = _CtxRef(out[0], keep)

    # -- lifetime -----------------------------------------------------------
    def close(self) -> None:
        """Releases this Context's hold on the C context (idempotent).

        Calls through this Context afterwards raise StateError; objects made
        from it stay usable until they are closed themselves.
        """
        self._ref = None

    @property
    def allocator(self) -> Optional["DebugAllocator"]:
        """The DebugAllocator given at creation, or None."""
        return self._allocator

    @property
    def closed(self) -> bool:
        """True after close()."""
        return self._ref is None

    def _child_ref(self):
        """The _CtxRef an object made from this Context keeps (StateError once closed)."""
        if self._ref is None:
            raise StateError("the velstatus Context is closed", code=lib.VELSTATUS_E_STATE)
        return self._ref

    # -- calling ------------------------------------------------------------
    def _held(self):
        """``with ctx._held() as p:`` runs a C call on ``p`` (the ctx) under the lock."""
        return self._child_ref().held()

    def __repr__(self):
        return "<velstatus.Context %s>" % ("closed" if self._ref is None else "open")


class _Held:
    __slots__ = ("_ref",)

    def __init__(self, ref):
        self._ref = ref

    def __enter__(self):
        ref = self._ref
        if ref.owner == threading.get_ident():
            raise StateError("a callback re-entered the velstatus Context that is running it",
                             code=lib.VELSTATUS_E_STATE)
        ref.lock.acquire()
        ref.owner = threading.get_ident()
        return ref.ptr

    def __exit__(self, *exc):
        ref = self._ref
        ref.owner = None
        try:
            while ref.pending:
                free_fn, ptr = ref.pending.pop()
                free_fn(ptr)
        finally:
            ref.lock.release()
        return False


# ---------------------------------------------------------------------------
# Callbacks. A wrapper that installs Python callables in a C vtable derives
# from _Host; its userdata is ffi.new_handle(self), kept on the object. The
# trampolines (bindings/python/callbacks.cdef, defined with def_extern in the
# area modules) use _onerror: it stashes the exception on the _Host found
# through the trampoline's `userdata` argument and returns a negative code,
# so the C call fails with VELSTATUS_E_HOST; _Host.check() then re-raises the
# stashed exception itself, unchanged, instead of a HostError.

HOST_FAILED = -1  # what a trampoline returns after a Python exception


class _Host:
    __slots__ = ("_handle", "_exc", "__weakref__")

    def __init__(self):
        self._exc = None
        self._handle = ffi.new_handle(self)

    @property
    def userdata(self):
        return self._handle

    def release(self):
        """Drops the handle after the C call: it refers back to this object,
        so keeping it would leave a cycle for the garbage collector."""
        self._handle = None

    def _stash(self, exc):
        if self._exc is None:
            self._exc = exc

    def check(self, status, err):
        """After the C call: re-raise a callback's exception, else map ``status``."""
        exc = self._exc
        if exc is not None:
            self._exc = None
            try:
                raise exc
            finally:
                exc = None
        if status != lib.VELSTATUS_OK:
            raise error_from(status, err)


def _onerror(exc_type, exc_value, tb):
    """cffi onerror for every trampoline: stash, return a negative code."""
    try:
        userdata = tb.tb_frame.f_locals["userdata"]
        host = ffi.from_handle(userdata)
        exc = exc_value if exc_value is not None else exc_type()
        if tb is not None and exc.__traceback__ is None:
            exc = exc.with_traceback(tb)  # keep the callback's frames for the re-raise
        host._stash(exc)
    except BaseException:  # pragma: no cover - no usable userdata: still fail the call
        pass
    return HOST_FAILED


def _onerror_void(exc_type, exc_value, tb):
    """onerror for trampolines that return nothing (the value is ignored)."""
    _onerror(exc_type, exc_value, tb)
    return None


def _onerror_null(exc_type, exc_value, tb):
    """onerror for allocation hooks: a Python error is an allocation failure."""
    _onerror(exc_type, exc_value, tb)
    return ffi.NULL


class DebugAllocator(_Host):
    """Allocator hooks in Python, for tests and leak hunting (not for speed).

    Every block the library allocates through a Context made with
    ``Context(allocator=DebugAllocator())`` is Python-owned memory recorded
    here: ``live`` is the number of blocks the library holds now (the C
    context itself is one of them), ``calls`` the number of allocation calls
    so far (alloc and realloc). Set ``fail_at = n`` to make allocation call
    #n (0-based, counted from then on by ``calls``) fail, as tests/failalloc.c
    does: the library then returns VELSTATUS_E_NOMEM (NoMemory) and must not
    leak. Every allocation the library makes goes through this allocator.
    """

    __slots__ = ("blocks", "calls", "fail_at")

    def __init__(self) -> None:
        super().__init__()
        # The hooks' handle is kept by each Context's C-context destructor,
        # not here: a handle held by the allocator itself would make a cycle,
        # and a collector clearing it would free the C context's memory
        # (``blocks``) while objects made from it still live.
        self.release()
        self.blocks = {}
        self.calls = 0
        self.fail_at = None

    @property
    def live(self) -> int:
        return len(self.blocks)

    def _vtable(self):
        """The hooks for one Context (the library copies them) and the handle
        their userdata is, which must outlive that Context's C context."""
        handle = ffi.new_handle(self)
        c = ffi.new("velstatus_allocator *")
        lib.velstatus_allocator_init(c, ffi.sizeof("velstatus_allocator"))
        c.userdata = handle
        c.alloc_fn = lib._vs_alloc
        c.realloc_fn = lib._vs_realloc
        c.free_fn = lib._vs_free
        return c, handle

    def _block(self, size):
        n = self.calls
        self.calls += 1
        if self.fail_at is not None and n == self.fail_at:
            return ffi.NULL
        # long double: the strictest alignment the C side may need.
        buf = ffi.new("long double[]", max(1, (size + 15) // 16))
        p = ffi.cast("void *", buf)
        self.blocks[int(ffi.cast("uintptr_t", p))] = (buf, size)
        return p


@ffi.def_extern(onerror=_onerror_null)
def _vs_alloc(userdata, size):
    return ffi.from_handle(userdata)._block(size)


@ffi.def_extern(onerror=_onerror_null)
def _vs_realloc(userdata, ptr, size):
    a = ffi.from_handle(userdata)
    key = int(ffi.cast("uintptr_t", ptr))
    old = a.blocks[key]
    p = a._block(size)
    if p != ffi.NULL:
        ffi.memmove(p, ptr, min(size, old[1]))
        del a.blocks[key]
    return p


@ffi.def_extern(onerror=_onerror_void)
def _vs_free(userdata, ptr):
    del ffi.from_handle(userdata).blocks[int(ffi.cast("uintptr_t", ptr))]
