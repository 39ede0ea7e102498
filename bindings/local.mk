# bindings: filled in by its issue.

# go: the cgo binding (STYLE §2.16) and the Go example host. run-tests.sh
# writes only under $(builddir)/bindings/go/_build.
VS_BINDING_TESTS += bindings/go/run-tests.sh
VS_GO_DIST_FILES = \
	bindings/go/go.mod \
	bindings/go/velstatus.go \
	bindings/go/callbacks.go \
	bindings/go/shim.c \
	bindings/go/serverstatus.go \
	bindings/go/serverstatus_test.go \
	bindings/go/retry.go \
	bindings/go/retry_test.go \
	bindings/go/operations.go \
	bindings/go/operations_test.go \
	bindings/go/reports.go \
	bindings/go/handle.go \
	bindings/go/phase.go \
	bindings/go/policy.go \
	bindings/go/timefmt.go \
	bindings/go/core_test.go \
	bindings/go/example_test.go \
	examples/go/go.mod \
	examples/go/main.go
EXTRA_DIST += bindings/go/run-tests.sh $(VS_GO_DIST_FILES)
clean-local: clean-local-go
clean-local-go:
	-chmod -R u+w bindings/go/_build 2>/dev/null; rm -rf bindings/go/_build
.PHONY: clean-local-go
