# tests/bench/module.mk — (filled in by the bench layer)
