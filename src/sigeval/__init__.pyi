# Written by tools/package_stub.py from sigeval._registry (the modules the package exports): do not edit.
from . import aggregate as aggregate
from . import bayes as bayes
from . import counts as counts
from . import crossval as crossval
from . import effect as effect
from . import equivalence as equivalence
from . import gating as gating
from . import generative as generative
from . import intervals as intervals
from . import metrics as metrics
from . import multiple as multiple
from . import paired as paired
from . import permutation as permutation
from . import power as power
from . import power_mcnemar as power_mcnemar
from . import predictions as predictions
from . import procedures as procedures
from . import rank_uncertainty as rank_uncertainty
from . import ranking as ranking
from . import readers as readers
from . import report as report
from . import resampling as resampling
from . import roc as roc
from . import seeds as seeds
from . import sequential as sequential
from ._results import BootstrapResult as BootstrapResult
from ._results import ConfidenceInterval as ConfidenceInterval
from ._version import __version__ as __version__
from .aggregate import *  # noqa: F403
from .bayes import *  # noqa: F403
from .counts import *  # noqa: F403
from .course.benchmark import run_benchmark as run_benchmark  # imported on first use (the course extra)
from .crossval import *  # noqa: F403
from .effect import *  # noqa: F403
from .equivalence import *  # noqa: F403
from .gating import *  # noqa: F403
from .generative import *  # noqa: F403
from .intervals import *  # noqa: F403
from .metrics import *  # noqa: F403
from .multiple import *  # noqa: F403
from .paired import *  # noqa: F403
from .permutation import *  # noqa: F403
from .power import *  # noqa: F403
from .power_mcnemar import *  # noqa: F403
from .predictions import *  # noqa: F403
from .procedures import *  # noqa: F403
from .rank_uncertainty import *  # noqa: F403
from .ranking import *  # noqa: F403
from .readers import *  # noqa: F403
from .report import *  # noqa: F403
from .resampling import *  # noqa: F403
from .roc import *  # noqa: F403
from .seeds import *  # noqa: F403
from .sequential import *  # noqa: F403
