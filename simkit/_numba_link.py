"""Link simkit's internal kernels once, into the kernel Python calls, instead of once per kernel.

numba turns every jitted function into machine code on its own: when it compiles a
function it links in the code of everything that function calls, optimises the whole and
emits it (numba/numba#9566 describes the quadratic cost). simkit's engines are positions
stepped by kernels that call kernels six to eight deep, so a cold compile re-optimised and
re-emitted the engine beneath every kernel of it: 858 function bodies for Snow Tails' 116
kernels, 60% of its 28 s of cold compile (measured with ``bench/compile.py``).

With :func:`install`, a simkit kernel that Python cannot call (``no_cpython_wrapper=True``:
every internal kernel, ``docs/positions.md``) keeps only its own optimised function body.
A kernel that Python calls (``cache=True``: ``batch._block``, the ``kernels.py`` doors)
links every internal kernel beneath it once, then LLVM optimises and emits that one module,
as numba does for it today. The machine code is the same kind of code (every kernel is
still optimised with all it calls in view) and the results are the same bit for bit (the
golden and determinism tests); only the repeated work is gone. The hook alone, measured
in one process (compile and 200 races): Snow Tails 28 -> 13 s of CPU, Mush! Mush! 28 ->
13, MUSH 25 -> 17, Mushroom Walk 20 -> 18.5, where Mushroom Walk and MUSH still had many
cached (so Python-callable, eagerly emitted) kernels; both now call internal kernels
through ``kernels.py`` doors as Snow Tails does. The machine code ran 1-9% faster.

Every simkit kernel is also jitted with ``no_cfunc_wrapper=True``: numba would otherwise
lower, optimise and emit a C-callable wrapper beside each function (what a kernel passed
as a first-class function is called through; simkit passes none), 133 of them in a cold
Snow Tails cell, which then compiled in 0.89x the CPU without them (same machine code
for the kernels, same tables; ``tests/test_numba_link.py`` checks every kernel).

It changes how numba's CPU code libraries are finalised, which are numba internals, so it
is installed only on numba versions it has been tested with (``TESTED``); elsewhere numba
keeps its own way, which is slower to compile and gives the same results. Numba's own
helpers (sorting, whose recursion numba resolves at run time) always keep numba's way.
``SIMKIT_NUMBA_LINK=numba`` turns it off, to compare or to rule it out.
"""

from __future__ import annotations

import os

TESTED = ("0.68",)  # numba major.minor versions this module has been tested with
_PREFIX = "simkit."  # modules whose internal kernels are linked once
_state = {"installed": False}
_pending_envs: dict = {}  # environment globals to set once their kernel's code is emitted


def installed() -> bool:
    """Whether numba links simkit's internal kernels once (see the module docstring)."""
    return _state["installed"]


def supported(version: str) -> bool:
    """Whether ``version`` of numba is one :func:`install` has been tested with."""
    return ".".join(version.split(".")[:2]) in TESTED


def install() -> bool:
    """Link simkit's internal kernels once from now on; returns :func:`installed`.

    Idempotent. Must run before the first kernel compiles (``simkit.games`` runs it on
    import); kernels compiled before it keep numba's way, which is as correct.
    """
    if _state["installed"] or os.environ.get("SIMKIT_NUMBA_LINK") == "numba":
        return _state["installed"]
    import numba
    from numba.core import codegen, cpu

    if not supported(numba.__version__):
        return False
    _patch(codegen, cpu)
    _flags_compare_fast()
    _record_repr_once()
    _state["installed"] = True
    return True


def _lazy(library) -> bool:
    return getattr(library, "_simkit_lazy", False)


def _beneath(library) -> list:
    """The libraries ``library`` links: its own, and every lazy one's beneath them, each
    once, each after one that calls it (LLVM links a ``linkonce_odr`` body only into a
    module that already refers to it)."""
    out, seen, todo = [], set(), [library]
    while todo:
        for dep in todo.pop()._linking_libraries:
            if dep not in seen:
                seen.add(dep)
                out.append(dep)
                if _lazy(dep):
                    todo.append(dep)
    return out


def _flags_compare_fast() -> None:
    """Numba's compile flags, hashed and compared as numba does, without building a dict of
    every option each time: its typing caches look them up about 50,000 times in a cold
    compile of a Snow Tails cell (``templates._get_impl``), 5% of its CPU.

    ``TargetConfig.__hash__`` hashes the sorted option names (``sorted`` of a dict sorts
    its keys), the same for every instance of a class: the same value, computed once.
    ``__eq__`` compares every option's value; two configs of one class whose set options
    are equal are equal without that walk, and any other pair takes numba's own."""
    from numba.core import targetconfig

    cls = targetconfig.TargetConfig
    numba_eq = cls.__eq__
    hashes: dict[type, int] = {}

    def __hash__(self):
        h = hashes.get(type(self))
        if h is None:
            h = hashes[type(self)] = hash(tuple(sorted(self.values())))
        return h

    def __eq__(self, other):
        if type(other) is type(self) and self._values == other._values:
            return True
        return numba_eq(self, other)

    cls.__hash__ = __hash__
    cls.__eq__ = __eq__


def _record_repr_once() -> None:
    """A record type's ``repr`` built once per type instead of at every call: numba
    spells out every field (name, type, offset) each time, and asks for it in every
    compiler pass of every function (the pass's event names its argument types) and in
    its overload lookups: about 8,000 times, 0.6 s of CPU, in a cold compile of a Snow
    Tails cell, whose cell, position and work records have 20 to 60 fields each. A type
    is immutable (numba interns it by its key), so its ``repr`` never changes."""
    from numba.core.types import npytypes

    cls = npytypes.Record
    numba_repr = cls.__repr__

    def __repr__(self):
        text = self.__dict__.get("_simkit_repr")
        if text is None:
            text = self.__dict__["_simkit_repr"] = numba_repr(self)
        return text

    __repr__.__wrapped__ = numba_repr  # numba's own, as functools.wraps would keep it
    cls.__repr__ = __repr__


def _patch(codegen, cpu) -> None:
    from numba.core.compiler_lock import require_global_compiler_lock

    set_env = codegen.JITCPUCodegen.set_env
    get_pointer = codegen.JITCodeLibrary.get_pointer_to_function
    get_executable = cpu.CPUContext.get_executable

    def flush_envs(cg) -> None:
        for name in list(_pending_envs):
            if cg._engine.get_global_value_address(name):
                set_env(cg, name, _pending_envs.pop(name))

    def emit(library) -> None:
        """What numba's ``finalize`` does, linking everything beneath once."""
        for dep in _beneath(library):
            library._reload_init.update(dep._reload_init)
            library._final_module.link_in(dep._get_module_for_linking(), preserve=True)
        library._optimize_final_module()
        library._final_module.verify()
        library._finalize_final_module()
        flush_envs(library._codegen)

    def finalize(self) -> None:
        require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        if _lazy(self):  # its own body is all a caller links; nothing to emit
            self._finalized = True
            return
        emit(self)

    def get_pointer_to_function(self, name):
        if _lazy(self):
            self._ensure_finalized()
            defined = {f.name for f in self._final_module.functions if not f.is_declaration}
            if name not in defined:
                return 0
            # Machine code asked for after all (a cfunc address): emit it now.
            self._get_module_for_linking()  # callers keep linking its own body only
            self._simkit_lazy = False
            self._finalized = False
            emit(self)
        return get_pointer(self, name)

    def set_env_when_emitted(self, env_name, env) -> None:
        if not self._engine.get_global_value_address(env_name):
            _pending_envs[env_name] = env  # a lazy kernel's: set when a caller emits it
            return
        set_env(self, env_name, env)

    def get_executable_marking(self, library, fndesc, env):
        if fndesc.modname.startswith(_PREFIX) and not library._finalized:
            # Just lowered (a library loaded from the cache defines nothing in IR), and
            # without the wrapper Python would call it through.
            defined = {f.name for f in library._final_module.functions if not f.is_declaration}
            if fndesc.mangled_name in defined and fndesc.llvm_cpython_wrapper_name not in defined:
                library._simkit_lazy = True
        return get_executable(self, library, fndesc, env)

    codegen.CPUCodeLibrary.finalize = finalize
    codegen.JITCodeLibrary.get_pointer_to_function = get_pointer_to_function
    codegen.JITCPUCodegen.set_env = set_env_when_emitted
    cpu.CPUContext.get_executable = get_executable_marking
