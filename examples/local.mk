# Example data and hosts: shipped in the tarball (the tests and the README read them).
EXTRA_DIST += examples
# The C example host: built through pkg-config by its own Makefile and run on examples/.
VS_SH_TESTS += examples/c/run-test.sh
