"""run_benchmark on more than one process: a process pool and a local Dask cluster against the serial run.

The six course tasks ("shapes"), the two template matchers and the two MLPs,
four seeds; the pool and the cluster have two workers (this machine has two
cores, shared). All three give the same runs bit for bit (tests/test_report.py).
The cluster is started once, outside the timing.
"""

from __future__ import annotations

import atexit
from concurrent.futures import ProcessPoolExecutor

from _bench import Comparison, run

from sigeval.course.benchmark import MODELS, run_benchmark

ARGS = ("shapes", MODELS, range(4))
KWARGS = dict(n_test=500, n_train=1000, progress=False)


def serial():
    return run_benchmark(*ARGS, **KWARGS)


def on_pool(pool):
    return run_benchmark(*ARGS, executor=pool, **KWARGS)


def comparisons() -> list[Comparison]:
    pool = ProcessPoolExecutor(2)
    atexit.register(pool.shutdown)
    rows = [Comparison("run_benchmark 6 tasks x 4 models x 4 seeds: 2 processes", lambda: on_pool(pool),
                       "serial (one process)", serial, repeats=3)]
    try:
        import distributed
    except ImportError:
        print("distributed is not installed (make bench installs the bench extra): no Dask row")
        return rows
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address="127.0.0.1:0", silence_logs=50)
    client = distributed.Client(cluster)
    atexit.register(cluster.close)
    atexit.register(client.close)
    # pure=False: Dask would otherwise hand back the previous repeat's results for the same call.
    executor = client.get_executor(pure=False)
    rows.append(Comparison("run_benchmark 6 tasks x 4 models x 4 seeds: Dask, 2 workers",
                           lambda: on_pool(executor), "serial (one process)", serial, repeats=3))
    return rows


if __name__ == "__main__":
    run(comparisons())
