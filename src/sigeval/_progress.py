"""Progress bars for long work, from tqdm when it is installed (the ``progress`` extra).

A bar appears only when all of these hold: the caller did not pass
``progress=False``, tqdm is installed, standard error is a terminal (so logs,
pipes, notebooks and the book build stay clean), and the work has already
taken :data:`DELAY` seconds (so quick calls never flash one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["progress_bar"]

#: Seconds of work before a bar is drawn.
DELAY = 2.0


class _Silent:
    """What :func:`progress_bar` returns when no bar is shown: it accepts and ignores the calls."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _Silent:
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


def progress_bar(total: int, description: str, *, enabled: bool = True, unit: str = "it") -> Any:
    """A tqdm bar over ``total`` steps, or a silent stand-in; use as a context manager.

    ``enabled`` is the caller's ``progress`` flag. tqdm itself turns the bar off
    when standard error is not a terminal (``disable=None``).
    """
    if not isinstance(enabled, bool | np.bool_):
        raise TypeError(f"`progress` must be True or False; got {enabled!r}.")
    if not enabled:
        return _Silent()
    try:
        from tqdm import tqdm
    except ImportError:  # the optional extra is not installed: no bar
        return _Silent()
    return tqdm(total=total, desc=description, unit=unit, disable=None, delay=DELAY, leave=False, dynamic_ncols=True)
