"""sigeval: statistical significance in evaluation.

The library of the course *Significance in Evaluation*. Each module holds one
idea of the course, and its chapter explains it:

===============  ======================================================================
``intervals``    binomial intervals for one score and their exact coverage
``resampling``   bootstrap intervals: percentile, basic, BCa; paired and grouped
``metrics``      metrics that are not averages (dataset IoU, average precision)
``permutation``  the paired permutation (sign-flip) test
``paired``       two fixed models on the same items: McNemar, paired standard errors, Wilcoxon
``seeds``        seed sweeps: summaries, Welch's test, the variance split
``procedures``   two training procedures from paired runs: thresholds, P(A>B)
``crossval``     tests over repeated train/test splits (5x2cv, corrected resampled t)
``power``        power, minimum detectable effect, seeds and test items needed
``equivalence``  TOST and the four verdicts
``plots``        figures any user may want (needs the ``plots`` extra: matplotlib)
``course``       the course's own apparatus: shape benchmark, MLP, the article's reproduction
===============  ======================================================================

Every public function and result class of the statistics modules is importable
from the package itself: ``from sigeval import proportion_ci``. Importing
``sigeval`` needs only numpy and scipy.
"""

from . import (
    crossval,
    equivalence,
    intervals,
    metrics,
    paired,
    permutation,
    power,
    procedures,
    resampling,
    seeds,
)
from ._results import ConfidenceInterval
from .crossval import *  # noqa: F403
from .equivalence import *  # noqa: F403
from .intervals import *  # noqa: F403
from .metrics import *  # noqa: F403
from .paired import *  # noqa: F403
from .permutation import *  # noqa: F403
from .power import *  # noqa: F403
from .procedures import *  # noqa: F403
from .resampling import *  # noqa: F403
from .seeds import *  # noqa: F403

__version__ = "0.2.0"

__all__ = [
    "ConfidenceInterval",
    *intervals.__all__,
    *resampling.__all__,
    *metrics.__all__,
    *permutation.__all__,
    *paired.__all__,
    *seeds.__all__,
    *procedures.__all__,
    *crossval.__all__,
    *power.__all__,
    *equivalence.__all__,
    "__version__",
]
