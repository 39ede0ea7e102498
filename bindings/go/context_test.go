// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"context"
	"errors"
	"testing"
	"time"
)

// backupExample decodes the backup itemoperations example, and the instant
// its reconcile tests run at.
func backupExample(t *testing.T) (*OpList, time.Time) {
	t.Helper()
	ol, err := DecodeOpList(KindBackup, mustRead(t, opsExample(t, "backup-itemoperations.json")))
	if err != nil {
		t.Fatal(err)
	}
	return ol, time.Date(2024, 5, 1, 10, 30, 0, 0, time.UTC)
}

// A context cancelled inside a callback stops the pass before the next
// callback; the error is the context's, reachable with errors.Is.
func TestReconcileHonoursTheContext(t *testing.T) {
	ol, now := backupExample(t)
	defer ol.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	_, err := ol.Reconcile(ctx, PluginClient{Progress: func(int, Operation) (OpProgress, error) {
		calls++
		cancel()
		return OpProgress{Completed: true, NCompleted: 1, NTotal: 1}, nil
	}}, DefaultReconcileOptions(now))
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrHost) || calls != 1 {
		t.Fatalf("cancelled pass: %v after %d callbacks, want context.Canceled after 1", err, calls)
	}
	// The list is usable afterwards.
	if _, err := ol.Ops(); err != nil {
		t.Fatal(err)
	}
}

// A callback that calls back into the list it is running for gets ErrState
// instead of deadlocking on the list's lock.
func TestReconcileReentryIsAnError(t *testing.T) {
	ol, now := backupExample(t)
	defer ol.Close()
	var inner error
	done := make(chan error, 1)
	go func() {
		_, err := ol.Reconcile(context.Background(), PluginClient{Progress: func(int, Operation) (OpProgress, error) {
			if inner == nil {
				_, inner = ol.Op(0) // re-enters the list
			}
			return OpProgress{Completed: true, NCompleted: 1, NTotal: 1}, nil
		}}, DefaultReconcileOptions(now))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a re-entrant callback deadlocked")
	}
	if !errors.Is(inner, ErrState) {
		t.Fatalf("re-entrant call: %v, want ErrState", inner)
	}
	// Another goroutine still waits for the lock rather than failing.
	if _, err := ol.Op(0); err != nil {
		t.Fatal(err)
	}
}

// Retry checks the context before each attempt, and the default Sleep ends
// early when it is done.
func TestRetryHonoursTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	_, err := Retry(ctx, time.Minute, func() error { calls++; return errors.New("boom") }, nil, nil)
	if !errors.Is(err, context.Canceled) || calls != 0 {
		t.Fatalf("cancelled before the first attempt: %v after %d attempts", err, calls)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	calls = 0
	_, err = RetryOnError(ctx, BackoffVeleroCap(10*time.Minute), func() error { calls++; return errors.New("boom") }, nil)
	if !errors.Is(err, context.DeadlineExceeded) || calls < 1 || time.Since(start) > 20*time.Second {
		t.Fatalf("deadline during a sleep: %v after %d attempts and %v", err, calls, time.Since(start))
	}
}

type cancellingHost struct {
	cancel    func()
	publishes int
}

func (h *cancellingHost) ListBSLs() ([]byte, error) {
	h.cancel() // the step stops before its next callback
	return []byte(`[{"metadata":{"name":"default"},"spec":{"default":true},"status":{"phase":"Available"}}]`), nil
}

func (h *cancellingHost) Publish(ServerState, []Reason, []byte) error { h.publishes++; return nil }

func TestServerStatusStepHonoursTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := &cancellingHost{cancel: cancel}
	_, published, err := ServerStatusStep(ctx, h, Options{}, nil)
	if !errors.Is(err, context.Canceled) || published || h.publishes != 0 {
		t.Fatalf("cancelled step: %v (published %v, %d publishes)", err, published, h.publishes)
	}
}
