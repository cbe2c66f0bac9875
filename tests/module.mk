# tests/module.mk — unit tests, integration tests, fuzzers, benchmarks.
check:
	@echo "no tests yet"; echo "0 passed, 0 failed"
