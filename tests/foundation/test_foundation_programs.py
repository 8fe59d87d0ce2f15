import pytest

from workbench import programs
from workbench.errors import InputError, UsageError

REQUIRED = [
    "nested_cat_add", "nested_cat_add_distinct", "cat3", "rotary", "tile", "movedim", "expand_reshape",
    "permute_flatten", "stack", "triangular_mask",
]


def test_registry_has_the_issue_programs():
    names = programs.names()
    assert set(REQUIRED) <= set(names)
    assert len(names) >= 35


def test_nested_cat_add_has_the_report_tables():
    p = programs.get("nested_cat_add")
    small = p.shape_sequence("confirm_small")
    assert len(small) == 10
    assert dict(small[0]) == {"rows": 1536, "q": 2048, "k": 256, "v": 256}
    assert len(p.shape_sequence("sequence")) == 14


def test_example_sizes_are_distinct_and_not_specialized():
    for name in programs.names():
        ex = programs.get(name).example
        assert all(v >= 2 for v in ex.values()), name
        assert len(set(ex.values())) == len(ex), f"{name}: equal example sizes merge into one symbol"


def test_make_inputs_at_a_shape():
    p = programs.get("nested_cat_add")
    ins = p.make_inputs({"rows": 3, "q": 4, "k": 5, "v": 6})
    assert [tuple(t.shape) for t in ins][:3] == [(3, 4), (3, 5), (3, 6)]
    assert all(str(t.dtype) == "torch.bfloat16" for t in ins)


def test_unknown_program_names_the_value_and_the_fix():
    with pytest.raises(UsageError, match=r"unknown program 'nested_cat'.*workbench list"):
        programs.get("nested_cat")


def test_program_file_without_functions(tmp_path):
    f = tmp_path / "bad.py"
    f.write_text("x = 1\n")
    with pytest.raises(InputError, match=r"does not define program\(\) and example_inputs\(\)"):
        programs.load_file(f)


def test_program_file_with_wrong_arity(tmp_path):
    f = tmp_path / "arity.py"
    f.write_text("import torch\ndef program(a, b):\n    return a + b\ndef example_inputs():\n    return (torch.ones(3),)\n")
    with pytest.raises(InputError, match=r"takes 2 arguments but example_inputs\(\) returns 1"):
        programs.load_file(f)


def test_program_file_import_error_names_the_file(tmp_path):
    f = tmp_path / "boom.py"
    # a program file (its syntax tree defines both functions) whose module code fails when it is imported
    f.write_text("def program(x):\n    return x\ndef example_inputs():\n    return ()\nraise RuntimeError('nope')\n")
    with pytest.raises(InputError, match=r"importing .*boom.py.* failed: RuntimeError: nope"):
        programs.load_file(f)


def test_missing_file():
    with pytest.raises(InputError, match="does not exist"):
        programs.resolve("/nonexistent/prog.py")


def test_model_file_defines_a_build_program(tmp_path):
    f = tmp_path / "mod.py"
    f.write_text("import torch\ndef model():\n    return torch.nn.Linear(4, 3)\n"
                 "def example_inputs():\n    return (torch.ones(2, 4),)\n")
    p = programs.load_file(f)
    assert p.build is not None and p.fn is programs.call_module and p.name == "mod"
    assert p.fn(p.build(), *p.example_inputs()).shape == (2, 3)  # the module applied to the inputs


def test_model_file_with_program_too_is_refused(tmp_path):
    f = tmp_path / "both.py"
    f.write_text("import torch\ndef model():\n    return torch.nn.Linear(4, 3)\ndef program(x):\n    return x\n"
                 "def example_inputs():\n    return (torch.ones(2, 4),)\n")
    with pytest.raises(InputError, match=r"defines both program\(\) and model\(\); keep one"):
        programs.load_file(f)


def test_zoo_names_resolve_to_build_programs():
    import workbench.zoo.registry  # noqa: F401  (registers zoo:; programs never imports the zoo)

    p = programs.resolve("zoo:layernorm_mlp")
    assert p.build is not None and p.dynamic == ((0, 1),) and p.origin == "zoo (torch.nn)"
    with pytest.raises(UsageError, match="unknown zoo model 'nope'"):
        programs.resolve("zoo:nope")


def test_a_user_model_file_that_imports_torchvision_loads(tmp_path):
    # torchvision 0.28's CUDA-built library does not load on the pinned CPU torch; a user's model file that
    # imports it must load as the zoo's torchvision models do (workbench/programs/torchvision_ops.py)
    f = tmp_path / "tv_model.py"
    f.write_text(
        "import torch\nimport torchvision\n\n"
        "def model():\n    return torchvision.models.squeezenet1_1(weights=None)\n\n"
        "def example_inputs():\n    return (torch.randn(2, 3, 32, 48),)\n"
    )
    # a fresh process: in this one an earlier test may have imported torchvision already
    import subprocess
    import sys

    code = f"from workbench.programs import resolve\np = resolve({str(f)!r})\nprint(p.name, p.build is not None)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["tv_model", "True"]
