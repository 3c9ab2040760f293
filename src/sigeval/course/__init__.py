"""The course's own apparatus: shape benchmark, NumPy MLP, chapter-only figures, the article's reproduction.

Needs the ``course`` extra (matplotlib, pandas, threadpoolctl). Nothing here is
imported by ``import sigeval``.
"""
