"""1 - x (aten.rsub)."""


def program(x):
    return 1.0 - x
