# Every entry point of the project. The first target that needs Python creates
# .venv from pyproject's extras, pinned by constraints.txt (the versions that
# produced the recorded outputs).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
BOOK_FLAGS := --config book/_config.yml --toc book/_toc.yml -W -n --keep-going

.DEFAULT_GOAL := help
.PHONY: help env lint unit test book verify verify-cpus ties record check-html reproduce bench mutation lab lock clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable ".[book,test]"
	touch $@

env: $(STAMP)  ## create .venv and install sigeval with the book and test extras

lint: $(STAMP)  ## ruff (lint) and mypy (types), configured in pyproject.toml
	$(BIN)/ruff check .
	$(BIN)/mypy

unit: $(STAMP)  ## the library's tests and doctests only: no chapter, no reproduction of the article (a minute or two)
	$(BIN)/python -m pytest -q --ignore=tests/test_notebooks.py --ignore=tests/test_html.py --ignore=tests/test_reproduce.py

test: lint  ## lint and type check, then unit tests, doctests, reproduction, every chapter executed once and compared with its record
	$(BIN)/python -m pytest

book: $(STAMP)  ## build the HTML book in _build/html; a chapter is executed only if no execution of its code against this sigeval is stored (make test stores them)
	$(BIN)/jupyter-book build . $(BOOK_FLAGS)

verify: $(STAMP)  ## rerun the chapters and compare with the records in book/outputs (CHAPTER=05 for one; STRICT=1: as text)
	$(BIN)/python tools/verify.py verify $(CHAPTER) $(if $(STRICT),--strict)

# NumPy 2.4's names of its x86 kernel groups: X86_V4 holds AVX-512, X86_V3 AVX2 and FMA3 (names it does
# not know, such as ARM's, are ignored, and the run is then an ordinary one; the log shows the kernels used).
NO_AVX512 := X86_V4 AVX512_ICL AVX512_SPR
NO_AVX2   := X86_V3 $(NO_AVX512)

verify-cpus: $(STAMP)  ## rerun the chapters, compared exactly, with NumPy's AVX-512 kernels off, then AVX2's too (CHAPTER=15)
	NPY_DISABLE_CPU_FEATURES="$(NO_AVX512)" $(BIN)/python tools/verify.py verify $(CHAPTER) --strict --no-store
	NPY_DISABLE_CPU_FEATURES="$(NO_AVX2)" $(BIN)/python tools/verify.py verify $(CHAPTER) --strict --no-store

ties: $(STAMP)  ## list the glued values that lie on a rounding tie of their printed precision (CHAPTER=05 for one)
	$(BIN)/python tools/rounding_ties.py $(CHAPTER)

record: $(STAMP)  ## rerun the chapters and rewrite book/outputs, only when a change of results is intended (CHAPTER=05)
	$(BIN)/python tools/verify.py record $(CHAPTER)

check-html: book  ## every page of the built book in headless Chromium, offline (screenshots in _build/screenshots), and a downloaded notebook run without myst-nb
	$(BIN)/python tools/check_html.py _build/html

reproduce: $(STAMP)  ## print the seed article's example output
	$(BIN)/python -m sigeval.course.reproduce

bench: $(STAMP)  ## one table of speed ratios against scipy, statsmodels, autorank, the seed script and plain loops (minutes)
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable ".[bench]"
	$(BIN)/python benchmarks/run_all.py

mutation: $(STAMP)  ## mutation score of each statistics module (minutes per module; MODULES="power paired" for some)
	$(BIN)/python tools/mutation.py $(MODULES)

$(VENV)/.lab: $(STAMP)
	$(BIN)/python -m pip install --quiet --constraint constraints.txt --editable ".[book,test,lab]"
	touch $@

lab: $(VENV)/.lab  ## open the chapters as notebooks in JupyterLab (the pinned `lab` extra, installed on first use)
	$(BIN)/jupyter lab notebooks/

lock: $(VENV)/.lab  ## rewrite constraints.txt from the current .venv (every extra installed)
	echo "# Exact versions that produced the recorded outputs (make lock rewrites this file)." > constraints.txt
	$(BIN)/python -m pip freeze --exclude-editable | grep -v '^sigeval' >> constraints.txt

clean:  ## remove the built book and caches (keeps .venv)
	rm -rf _build .pytest_cache .jupyter_cache .mypy_cache .ruff_cache
