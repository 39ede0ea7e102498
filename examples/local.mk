# SPDX-License-Identifier: Apache-2.0
# Example data and hosts: shipped in the tarball (the tests and the README read them).
EXTRA_DIST += examples
