# SPDX-License-Identifier: Apache-2.0
# Example data and hosts: shipped in the tarball (the tests and the README read them).
EXTRA_DIST += examples
# The C example host: built through pkg-config by its own Makefile and run on examples/
# (the test lives in tests/: a log in the build tree's examples/ would be distributed).
VS_SH_TESTS += tests/example-c.sh
# Running examples/c's own Makefile in the source tree leaves its binary there: not shipped.
dist-hook: dist-hook-examples
dist-hook-examples:
	chmod -R u+w $(distdir)/examples
	rm -f $(distdir)/examples/c/c-host $(distdir)/examples/c/c-host.out
