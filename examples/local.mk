# Example data and hosts: shipped in the tarball (the tests and the README read them).
EXTRA_DIST += examples
