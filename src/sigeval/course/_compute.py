"""How the course's experiments compute: the chunk size of streamed images and one BLAS thread for small products.

Private to :mod:`sigeval.course`: the shape benchmark and the MLP share it.
"""

from __future__ import annotations

import functools

from threadpoolctl import ThreadpoolController

# Images per chunk when streaming. Even, because OpenBLAS computes the last row
# of an odd-sized block with a different kernel, whose rounding could flip a
# near-tied prediction relative to the article's single large product.
CHUNK = 512
# Found once: looking up the loaded BLAS libraries takes milliseconds, while
# setting their thread count through the controller takes microseconds.
_BLAS = ThreadpoolController()


def one_blas_thread(fn):
    """Run ``fn`` with BLAS limited to one thread.

    The work here is many small matrix products (a chunk of images, a
    minibatch), for which BLAS threads cost more than they bring: on a 2-core
    machine one thread ran them 3 to 10 times faster than two. It also lets a
    caller parallelise over chunks (``seed_sweep(executor=...)``) without
    oversubscribing the cores. The results are the same either way.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with _BLAS.limit(limits=1, user_api="blas"):
            return fn(*args, **kwargs)

    return wrapper
