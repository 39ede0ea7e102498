// SPDX-License-Identifier: Apache-2.0
module example.com/velstatus-consumer

go 1.19

require libvelstatus.invalid/velstatus v1.0.0

// Where the module source is installed (make install: $(datadir)/gocode/src;
// the golang-velstatus-dev package: /usr/share/gocode/src). tests/install-consumers.sh
// points it at its staged install with `go mod edit -replace`.
replace libvelstatus.invalid/velstatus => /usr/share/gocode/src/libvelstatus.invalid/velstatus
