"""The course's own apparatus: the shape benchmark, the NumPy MLP, chapter-only figures and the reproduction of the source article.

Needs the ``course`` extra (matplotlib, pandas, threadpoolctl). Nothing here is
imported by ``import sigeval``.
"""
