// Command go-host is the Go example host of libvelstatus: it classifies
// BackupStorageLocation lists (`kubectl get bsl -o json` files) exactly as
// `velstatus server-status` does, and runs a status patch through the retry
// policy with a fake clock.
//
//	go-host [-json] FILE...
//
// With -json each classification is printed as "FILE<TAB>JSON", the JSON
// being what `velstatus server-status -o json FILE` prints.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"libvelstatus.invalid/velstatus"
)

func main() {
	asJSON := flag.Bool("json", false, "print each verdict as the library's JSON")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go-host [-json] FILE...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	fmt.Printf("libvelstatus %s\n", velstatus.Version())

	fmt.Println("== server status")
	for _, path := range flag.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		v, err := velstatus.ServerStatus(data, velstatus.Options{})
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", path, err)
			os.Exit(2)
		}
		name := filepath.Base(path)
		if *asJSON {
			fmt.Printf("%s\t%s\n", name, v.JSON)
			continue
		}
		fmt.Printf("%s: %s %v default=%q: %s\n", name, v.Status, v.Reasons, v.Default, v.Message)
	}

	if err := retryDemo(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// retryDemo patches a status through the Velero preset's retry policy
// (CapBackoff(10m)); the API server refuses twice. The clock is fake, so the
// demo takes no time and prints the same sleeps every run.
func retryDemo() error {
	fmt.Println("== retry (Velero preset, fake clock)")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	start := now
	hooks := &velstatus.RetryHooks{
		Sleep:  func(d time.Duration) error { fmt.Printf("  sleep %v\n", d); now = now.Add(d); return nil },
		Random: func() float64 { return 0 },
		Now:    func() time.Time { return now },
	}
	attempt := 0
	patch := func() error {
		attempt++
		if attempt < 3 {
			err := errors.New("etcdserver: request timed out")
			fmt.Printf("  attempt %d: %v\n", attempt, err)
			return err
		}
		fmt.Printf("  attempt %d: patched\n", attempt)
		return nil
	}
	res, err := velstatus.Retry(10*time.Minute, patch, hooks, velstatus.PolicyVelero())
	if err != nil {
		return err
	}
	sleeps := make([]string, len(res.Sleeps))
	for i, s := range res.Sleeps {
		sleeps[i] = s.String()
	}
	fmt.Printf("  outcome %s after %d attempts, sleeps [%s], %v on the fake clock\n", res.Outcome, res.Attempts,
		strings.Join(sleeps, " "), now.Sub(start))
	return nil
}
