# tests/fuzz/module.mk — (filled in by the fuzz layer)
