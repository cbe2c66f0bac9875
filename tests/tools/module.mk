# tests/tools/module.mk — (filled in by the tools layer)
