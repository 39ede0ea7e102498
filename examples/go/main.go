// Command go-host is the Go example host of libvelstatus.
package main

import (
	"fmt"
	"os"

	"libvelstatus.invalid/velstatus"
)

func main() {
	fmt.Printf("libvelstatus %s\n", velstatus.Version())
	legal, controller, err := velstatus.PhaseTransition(velstatus.KindBackup,
		velstatus.PhaseInProgress, velstatus.PhaseWaitingForPluginOperations)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Printf("backup %s -> %s: legal=%v controller=%q\n", velstatus.PhaseInProgress,
		velstatus.PhaseWaitingForPluginOperations, legal, controller)
}
