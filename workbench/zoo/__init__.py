"""The zoo: real models (torch.nn blocks, torchvision, Hugging Face transformers) captured on the fake device
and checked in both modes, one model per task, on local processes or a Dask cluster.

Stage: zoo (drives capture and check; touches no Inductor internals itself). Modules:
:mod:`~workbench.zoo.registry` (the models), :mod:`~workbench.zoo.runner` (one model end to end; the
fan-out), :mod:`~workbench.zoo.report` (``zoo.json`` and ``zoo.md``), :mod:`~workbench.zoo.figures`,
:mod:`~workbench.zoo.oracle` (the independent oracle over a run's certified kernels),
:mod:`~workbench.zoo.cli` (``workbench zoo list|run|recheck|oracle``). See docs/zoo.md.
"""
