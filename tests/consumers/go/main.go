// SPDX-License-Identifier: Apache-2.0

// Command velstatus-consumer is a Go program outside the source tree: it
// builds against the installed module source and libvelstatus (found by
// pkg-config), classifies one BSL list and prints "velstatus VERSION: STATUS".
// tests/install-consumers.sh and scripts/ci-deb.sh build and run it.
package main

import (
	"fmt"
	"os"

	"libvelstatus.invalid/velstatus"
)

const bsls = `[{"metadata":{"name":"default"},"spec":{"default":true,"accessMode":"ReadOnly"},
  "status":{"phase":"Available"}}]`

func main() {
	v, err := velstatus.ServerStatus([]byte(bsls), velstatus.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "consumer:", err)
		os.Exit(1)
	}
	fmt.Printf("velstatus %s: %s\n", velstatus.Version(), v.Status)
}
