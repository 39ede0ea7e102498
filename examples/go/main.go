// SPDX-License-Identifier: Apache-2.0

// Command go-host is the Go example host of libvelstatus: it classifies
// BackupStorageLocation lists (`kubectl get bsl -o json` files) exactly as
// `velstatus server-status` does, runs a status patch through the retry
// policy with a fake clock, and drives one reconcile of an itemoperations
// file whose plugin client is written in Go (and one whose Progress
// callback panics).
//
//	go-host [-json] [-ops FILE -progress FILE -now RFC3339] BSL-FILE...
//
// With -json each classification is printed as "FILE<TAB>JSON", the JSON
// being what `velstatus server-status -o json FILE` prints. -progress maps
// operation IDs to what the plugin answers (the CLI's --progress format).
package main

import (
	"context"
	"encoding/json"
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
	opsFile := flag.String("ops", "", "a backup itemoperations file to reconcile")
	progressFile := flag.String("progress", "", "the plugin answers by operation ID")
	nowFlag := flag.String("now", "", "the reconcile's current time (RFC 3339)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go-host [-json] [-ops FILE -progress FILE -now RFC3339] BSL-FILE...\n")
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
	if *opsFile != "" {
		if err := reconcileDemo(*opsFile, *progressFile, *nowFlag); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// answer is one entry of the -progress file.
type answer struct {
	Completed      bool    `json:"completed"`
	Err            string  `json:"err"`
	NCompleted     int64   `json:"nCompleted"`
	NTotal         int64   `json:"nTotal"`
	OperationUnits string  `json:"operationUnits"`
	Description    string  `json:"description"`
	Started        *string `json:"started"`
	Updated        *string `json:"updated"`
	Error          *string `json:"error"`
	LookupError    *string `json:"lookupError"`
	CancelError    *string `json:"cancelError"`
}

func parseTime(s *string) time.Time {
	if s == nil {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		panic(err) // caught by the binding: the pass fails with this error
	}
	return t
}

// reconcileDemo runs one pass of the operations controller over the file,
// with a plugin client written in Go, then one whose Progress panics.
func reconcileDemo(opsPath, progressPath, nowText string) error {
	fmt.Println("== reconcile (plugin client in Go)")
	now, err := velstatus.ParseTime(nowText)
	if err != nil {
		return fmt.Errorf("-now: %w", err)
	}
	answers := map[string]answer{}
	if progressPath != "" {
		data, err := os.ReadFile(progressPath)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(data, &answers); err != nil {
			return fmt.Errorf("%s: %w", progressPath, err)
		}
	}
	client := velstatus.PluginClient{
		Progress: func(i int, op velstatus.Operation) (velstatus.OpProgress, error) {
			a, ok := answers[op.OperationID]
			fmt.Printf("  Progress(%s)\n", op.OperationID)
			switch {
			case !ok:
				return velstatus.OpProgress{}, fmt.Errorf("operation ID %s is invalid", op.OperationID)
			case a.LookupError != nil:
				return velstatus.OpProgress{}, &velstatus.LookupError{Err: errors.New(*a.LookupError)}
			case a.Error != nil:
				return velstatus.OpProgress{}, errors.New(*a.Error)
			}
			return velstatus.OpProgress{Completed: a.Completed, Err: a.Err, NCompleted: a.NCompleted, NTotal: a.NTotal,
				OperationUnits: a.OperationUnits, Description: a.Description, Started: parseTime(a.Started),
				Updated: parseTime(a.Updated)}, nil
		},
		Cancel: func(i int, op velstatus.Operation) error {
			fmt.Printf("  Cancel(%s)\n", op.OperationID)
			if a := answers[op.OperationID]; a.CancelError != nil {
				return errors.New(*a.CancelError)
			}
			return nil
		},
	}
	data, err := os.ReadFile(opsPath)
	if err != nil {
		return err
	}
	ops, err := velstatus.DecodeOpList(velstatus.KindBackup, data)
	if err != nil {
		return fmt.Errorf("%s: %w", opsPath, err)
	}
	defer ops.Close()
	opts := velstatus.DefaultReconcileOptions(now)
	opts.Policy = velstatus.PolicyVelero()
	res, err := ops.Reconcile(context.Background(), client, opts)
	if err != nil {
		return err
	}
	fmt.Printf("  next phase %s (completed %d, failed %d, in progress %d)\n", res.Phase, res.Completed, res.Failed,
		res.InProgress)
	for _, e := range res.Errors {
		fmt.Printf("  error: %s\n", e)
	}
	for _, c := range res.Canceled {
		fmt.Printf("  canceled: %s\n", c.OperationID)
	}
	p, err := ops.Progress(now)
	if err != nil {
		return err
	}
	fmt.Printf("  progress: %s\n", p.Summary)
	describe, err := ops.Describe(false)
	if err != nil {
		return err
	}
	fmt.Printf("  %s", describe)

	fmt.Println("== reconcile (Progress panics)")
	again, err := velstatus.DecodeOpList(velstatus.KindBackup, data)
	if err != nil {
		return err
	}
	defer again.Close()
	_, err = again.Reconcile(context.Background(), velstatus.PluginClient{
		Progress: func(i int, op velstatus.Operation) (velstatus.OpProgress, error) {
			panic("plugin connection lost while asking about " + op.OperationID)
		},
	}, opts)
	var pe *velstatus.PanicError
	if !errors.As(err, &pe) || !errors.Is(err, velstatus.ErrHost) {
		return fmt.Errorf("the panic did not come back as an error: %v", err)
	}
	fmt.Printf("  Reconcile returned: %v\n", err)
	return nil
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
	res, err := velstatus.Retry(context.Background(), 10*time.Minute, patch, hooks, velstatus.PolicyVelero())
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
