"""KernelView logic without a browser: the dropdowns drive what the panes show."""

import pytest

from workbench.widgets.kernel_view import KernelView


def test_kernel_view_shows_source_facts_and_follows_the_dropdown():
    view = KernelView(program="nested_cat_add")
    assert "def triton_poi_fused_add_cat_0(" in view.source.value
    assert "ks0" in view.facts.value and "2147483647" in view.guards.value
    assert view.selected.program == "nested_cat_add"
    view.program.value = "pixel_shuffle_like"  # a program with two kernels
    assert len(view.kernel.options) == 2
    first = view.source.value
    view.kernel.value = view.kernel.options[1]
    assert view.source.value != first and view.kernel.options[1] in view.source.value
    assert "kernel IR" in view.ir.value


def test_kernel_view_without_data(tmp_path):
    with pytest.raises(FileNotFoundError, match="workbench capture NAME"):
        KernelView(data_dir=tmp_path)
