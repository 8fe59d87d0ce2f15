"""ipywidgets views over the workbench's artefacts. Widgets hold state and render; every computation is a
call into the package (so each view's logic is testable without a browser)."""
