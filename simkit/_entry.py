"""The ``simkit`` command: settings for the whole process, made before numpy, numba and
pandas are imported, then the CLI (``simkit.cli``).

Both were measured on ``simkit run`` of the demo's first cell (perf, and the run timed
whole): they take about 0.4 s of CPU off every command, 1.5-2% of a 200,000-race run.
"""

from __future__ import annotations

import gc
import os
import signal
import sys

_interrupted = {"seen": False}


def _on_sigint(signum, frame) -> None:
    """Python's own Ctrl-C (``KeyboardInterrupt``), remembered: ``main`` exits on it."""
    _interrupted["seen"] = True
    signal.default_int_handler(signum, frame)


def main() -> None:
    """The command; Ctrl-C while it starts (importing numpy, pandas, numba takes a second)
    ends in one line, not a traceback through the imports (issue 37)."""
    signal.signal(signal.SIGINT, _on_sigint)
    try:
        _main()
    except SystemExit as done:
        if not _interrupted["seen"]:
            raise
        # A Ctrl-C the command turned into its one line ("interrupted; finish the run
        # with ..."): when it came during an import (a run imports its kernels as it
        # goes), the interpreter is marked as ended by an unhandled Ctrl-C, as below, and a
        # normal exit would re-raise SIGINT on itself: status -2 after the right line (1 in
        # 40 at 0.5 s on a fresh clone's make test). Its files are written; stdout and
        # stderr are all that is left to flush.
        code = done.code
        if isinstance(code, str):
            sys.stderr.write(code + "\n")
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code if isinstance(code, int) else (0 if code is None else 1))
    except KeyboardInterrupt:
        sys.stderr.write("Error: interrupted while starting; nothing was done\n")
        sys.stderr.flush()
        # Not sys.exit: a KeyboardInterrupt that went through C code running Python source
        # during an import (CPython's run_eval_code_obj) leaves the interpreter marked as
        # ended by an unhandled Ctrl-C, so a normal exit re-raises SIGINT on itself and the
        # exit status is -2 instead of 130 (1 in 40 at 0.3 s in make test). Nothing was
        # done and nothing needs flushing but stderr.
        os._exit(130)
    finally:
        # The command is done (click ends it with SystemExit). Python's exit then restores
        # SIGINT's default action before it frees its modules (_PySignal_Fini, then a
        # few tenths of a second of finalizing numba, pandas and pyarrow), so a Ctrl-C in
        # that window killed a finished run with status -2 and no word (make test, at
        # 1.0 s after a 40-race run). An ignored signal is left ignored there: the
        # finished command keeps its own status.
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _main() -> None:
    # simkit plays on its own threads, one per core; OpenBLAS's worker threads, started at
    # import, spin on those same cores (1.2% of a run's CPU samples), and no simkit
    # command makes a BLAS call large enough to need them. An explicit setting wins.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # Importing the stack made three full collections of every object made so far
    # (0.2 s); nothing imported is garbage, so it is frozen out of later ones.
    gc.disable()
    from simkit.cli import main as cli

    gc.freeze()
    gc.enable()
    cli()
