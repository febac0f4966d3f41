"""gunicorn settings for profiling the scaled set-up: the repository's ``gunicorn.conf.py``
as it is, plus a cProfile switch in every worker. The first ``SIGRTMIN+1`` a worker gets
starts its profiler (of CPU time: the machine is shared), the next stops it and writes
``worker-<pid>-<n>.prof`` into ``$BENCH_PROFILE_DIR`` (gevent runs every greenlet of a
worker on one thread, so one
profiler sees the whole worker). ``bench/web.py --profile DIR`` sends them around the
play, so the profile holds the moves and their fan-out, not the opening of the streams.

Used only by ``bench/web.py --profile``; never by the app.
"""

import cProfile
import os
import signal
import time
from pathlib import Path

_conf = Path(__file__).resolve().parent.parent / "gunicorn.conf.py"
_here = __file__
__file__ = str(_conf)  # it finds companion/connections.py beside itself
exec(compile(_conf.read_text(), str(_conf), "exec"))  # the README's settings, unchanged
__file__ = _here

_real_post_worker_init = post_worker_init  # noqa: F821 (defined by the exec above)
SWITCH = signal.SIGRTMIN + 1


def post_worker_init(worker):  # noqa: F811
    _real_post_worker_init(worker)
    state = {"profile": None, "n": 0}

    def toggle(*_):
        profile = state["profile"]
        if profile is None:
            state["profile"] = cProfile.Profile(time.process_time)  # CPU, not wall time
            state["profile"].enable()
            return
        profile.disable()
        state["profile"] = None
        state["n"] += 1
        folder = Path(os.environ["BENCH_PROFILE_DIR"])
        profile.dump_stats(str(folder / f"worker-{os.getpid()}-{state['n']}.prof"))

    signal.signal(SWITCH, toggle)
