"""The one version number of the package: ``pyproject.toml`` reads it, ``sigeval.__version__`` shows it.

In a module of its own so that a module needing the number (the environment block of a report) imports
this floor-0 helper rather than the package, which imports every module. ``CHANGELOG.md`` says what changed.
"""

__version__ = "0.3.0"
