"""The zoo's name for :mod:`workbench.programs.torchvision_ops` (user model files need it too, so it lives in
the programs layer, below the zoo)."""

from workbench.programs.torchvision_ops import SCHEMAS, ensure_importable  # noqa: F401
