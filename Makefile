# The two commands of the README's first screen. Both set up from scratch when needed.
.PHONY: setup demo test lean-check figures

setup:
	bash scripts/setup.sh

demo: setup
	.venv/bin/workbench demo

test:
	bash scripts/setup.sh --browser
	.venv/bin/python -m pytest tests notebooks --nbmake -p no:cacheprovider -n 2 --dist loadfile --durations=25

# Where Lean exists: build each library file, then each instance on its own, and write a per-file table to
# lean/.lake/lean-check.md (built / failed with the first error / skipped; seconds; axioms). Without `lake`
# it says so in one line and exits 2 (docs/lean.md, "make lean-check").
lean-check:
	bash scripts/lean-check.sh

# Developers only: redraw the shipped figures/ from data/ (commit the diff on purpose).
figures: setup
	.venv/bin/workbench figures --regenerate
