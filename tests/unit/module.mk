# tests/unit/module.mk — (filled in by the unit layer)
