"""How every Python tool under scripts/ ends (docs/user-guide.md, "The
Python tools"): Ctrl-C ends it with one line and exit 130, SIGTERM with one line
and exit 143 (the child processes it waits for are stopped with it), a
closed stdout (`tool | head`) quietly with 141, and an exception nobody
expected with one "internal error" line and exit 1; never a traceback.
A tool's own refusals (exit 2) and failures (exit 1) stay its own.

    if __name__ == "__main__":
        sys.exit(l3vp.tool.run("measure-net", main))
"""
import os
import signal
import sys
import traceback


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the tool is, so that it unwinds as on Ctrl-C
    (subprocess.run stops its child, `finally` blocks clean up)."""


_GOT = {"signal": None}


def _on_sigterm(signum, frame):
    _GOT["signal"] = signum
    raise Terminated()


def install():
    """SIGTERM raises Terminated from now on (run() does this itself)."""
    signal.signal(signal.SIGTERM, _on_sigterm)


_STOP = {signal.SIGINT, signal.SIGTERM}


def worker_init(then=None, *args):
    """For pool workers: Ctrl-C at the terminal reaches the whole process
    group; the parent alone answers it (workers would print tracebacks).
    process_pool() forks the workers with both signals blocked, so that a
    Ctrl-C in the instant before this runs stays pending and is then
    ignored. `then(*args)`: the pool's own initializer."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP)
    if then is not None:
        then(*args)


def _nothing():
    return None


def process_pool(n, initializer=None, *initargs):
    """A concurrent.futures process pool of `n` forked workers that leave
    Ctrl-C and SIGTERM to the tool (worker_init). The workers are started
    here, with the signals blocked while they fork; the tool stops them
    with stop_pool()."""
    import concurrent.futures
    import multiprocessing

    ex = concurrent.futures.ProcessPoolExecutor(
        max_workers=n, mp_context=multiprocessing.get_context("fork"), initializer=worker_init,
        initargs=(initializer,) + initargs)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP)
    try:
        ex.submit(_nothing)   # a forking pool starts all its workers at the first submit
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    return ex


def stop_pool(ex, futures=()):
    """An interrupted tool's pool: its leon3vp runs killed (the workers
    ignore SIGINT, and so do the runs they started), the queued work
    cancelled, the workers joined. No traceback, nothing left running."""
    kill_descendants()
    for f in futures:
        f.cancel()
    ex.shutdown(wait=True, cancel_futures=True)


def descendants(pid=None):
    """The pids of every process below `pid` (default: this one), children
    first, from /proc (a pool's workers and the leon3vp runs they wait for;
    a Dask nanny's worker and its runs)."""
    pid = os.getpid() if pid is None else pid
    children = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def kill_descendants(comm="leon3vp", sig=signal.SIGKILL):
    """Send `sig` to every descendant named `comm` (all with None); the
    number signalled. An interrupted tool stops its runs with this before
    it closes its pool or cluster, so that no leon3vp outlives it (a run
    in a worker that ignores SIGINT ignores it too)."""
    n = 0
    for pid in descendants():
        try:
            if comm is not None:
                with open(f"/proc/{pid}/comm") as f:
                    if f.read().strip() != comm:
                        continue
            os.kill(pid, sig)
            n += 1
        except (OSError, ProcessLookupError):
            continue
    return n


class held_signals:
    """Ctrl-C and SIGTERM held back while a library builds an object that
    a KeyboardInterrupt must not find half built (its __del__ or atexit
    hook would print a traceback: a tqdm bar, a Dask Client); raised
    again, through the tool's own handlers, when the block is left."""

    def __enter__(self):
        self.got = []
        self.old = {s: signal.signal(s, lambda signum, frame: self.got.append(signum))
                    for s in (signal.SIGINT, signal.SIGTERM)}
        return self

    def __exit__(self, *exc):
        for s, h in self.old.items():
            signal.signal(s, h)
        for s in dict.fromkeys(self.got):
            os.kill(os.getpid(), s)
        return False


def progress(total, desc, quiet=False, unit="run"):
    """A progress bar on stderr (tqdm) while stderr is a terminal and the
    tool is not quiet; otherwise a bar that draws nothing, so that logs
    and tests see only the tool's own lines (docs/user-guide.md, "The Python tools")."""
    from tqdm import tqdm
    with held_signals():
        return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True,
                    disable=True if quiet or not sys.stderr.isatty() else False)


def stopped(name, what=""):
    """The line and exit status of an interrupted tool."""
    if _GOT["signal"] == signal.SIGTERM:
        print(f"{name}: terminated (SIGTERM){what}", file=sys.stderr)
        return 143
    print(f"{name}: interrupted{what}", file=sys.stderr)
    return 130


def internal_error(name, e):
    """One line naming the exception and where it came from; exit 1."""
    tb = traceback.extract_tb(e.__traceback__)
    where = f" ({os.path.basename(tb[-1].filename)}:{tb[-1].lineno})" if tb else ""
    msg = " ".join(str(e).split())[:300]
    print(f"{name}: internal error: {type(e).__name__}: {msg}{where}; please report it with "
          "the command and its input files", file=sys.stderr)
    return 1


def run(name, main, *args):
    """main(*args) with the endings above; its return value (None: 0) or
    SystemExit status is the tool's exit status."""
    install()
    try:
        rc = main(*args)
        return 0 if rc is None else rc
    except KeyboardInterrupt:
        return stopped(name)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as e:  # noqa: BLE001 - the promise: never a traceback
        return internal_error(name, e)
