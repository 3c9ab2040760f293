"""Shared test configuration: the Hypothesis profiles, and a thread lock for tqdm.

``ci`` (the default) is deterministic (``derandomize=True``: the same examples
on every run, no example database) and bounded, so the property suite costs
seconds. ``thorough`` draws many more examples for a local search; select it
with ``HYPOTHESIS_PROFILE=thorough``.
"""

import os
import threading

from hypothesis import HealthCheck, settings

try:
    import tqdm
except ImportError:  # the progress extra is optional
    pass
else:
    # tqdm's default lock includes a semaphore shared across processes. Mutation testing forks
    # one child per mutant; a child stopped by its timeout while drawing a bar leaves the
    # semaphore held, and every later child then waits on it forever (counted as a timeout).
    tqdm.tqdm.set_lock(threading.RLock())

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "thorough",
    parent=settings.get_profile("ci"),
    derandomize=False,
    max_examples=1000,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
