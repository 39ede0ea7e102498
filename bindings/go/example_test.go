// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// goTool is the go command that runs these tests ($GO from make check).
func goTool() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// buildExample builds the example host (examples/go, its own module that
// replaces this one with ../../bindings/go) into a temporary directory and
// returns the binary's path. Nothing is written into the source tree.
func buildExample(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "go"))
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "go-host")
	args := []string{"build", "-o", bin}
	if ld := os.Getenv("VS_GO_LDFLAGS"); ld != "" {
		args = append(args, "-ldflags="+ld)
	}
	cmd := exec.Command(goTool(), append(args, ".")...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", dir, err, out)
	}
	return bin
}

// The example host classifies the bundled BSL examples exactly as the CLI
// does, and its retry demo (fake clock) prints Velero's schedule.
func TestExampleMatchesCLI(t *testing.T) {
	bin := buildExample(t)
	files := bslExamples(t)
	out, err := exec.Command(bin, append([]string{"-json"}, files...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, out)
	}
	got := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if name, js, ok := strings.Cut(line, "\t"); ok {
			got[name] = js
		}
	}
	if len(got) != len(files) {
		t.Fatalf("example classified %d of %d files:\n%s", len(got), len(files), out)
	}
	for _, f := range files {
		cli := string(verdictOnly(runCLI(t, "server-status", "-o", "json", f)))
		if got[filepath.Base(f)] != cli {
			t.Errorf("%s:\n  example: %s\n  cli:     %s", filepath.Base(f), got[filepath.Base(f)], cli)
		}
	}
	if !strings.Contains(string(out), "libvelstatus "+Version()) {
		t.Errorf("example output lacks the version:\n%s", out)
	}
	if !strings.Contains(string(out), "outcome succeeded after 3 attempts, sleeps [10ms 50ms], 60ms on the fake clock") {
		t.Errorf("retry demo:\n%s", out)
	}

	// The text form names each file with its status, as the CLI's JSON says.
	out, err = exec.Command(bin, files...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, out)
	}
	for _, f := range files {
		v, err := ServerStatus(mustRead(t, f), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), filepath.Base(f)+": "+v.Status.String()+" ") {
			t.Errorf("text output lacks %s: %s:\n%s", filepath.Base(f), v.Status, out)
		}
	}
	t.Logf("example output:\n%s", out)
}

// The example's reconcile, driven by its Go plugin client, reaches the
// CLI's result; its panicking client comes back as an error.
func TestExampleReconcileMatchesCLI(t *testing.T) {
	bin := buildExample(t)
	ops, progress := opsExample(t, "backup-itemoperations.json"), opsExample(t, "backup-progress.json")
	for _, now := range []string{"2024-05-01T10:30:00Z", "2024-05-01T16:30:00Z"} {
		out, err := exec.Command(bin, "-ops", ops, "-progress", progress, "-now", now, bslExamples(t)[0]).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", bin, err, out)
		}
		var cli cliReconcile
		if err := json.Unmarshal(runCLI(t, "operations", "reconcile", "--kind", "backup", "--phase",
			"WaitingForPluginOperations", "--now", now, "--timeout", "4h", "--policy", "velero", "--progress", progress,
			"-o", "json", ops), &cli); err != nil {
			t.Fatal(err)
		}
		want := []string{fmt.Sprintf("  next phase %s (completed %d, failed %d, in progress %d)\n", cli.Phase,
			cli.Completed, cli.Failed, cli.InProgress)}
		for _, e := range cli.Errors {
			want = append(want, "  error: "+e+"\n")
		}
		for _, c := range cli.Canceled {
			want = append(want, "  canceled: "+c+"\n")
		}
		// The progress summary and describe line of the records after the pass.
		want = append(want, "  progress: "+summaryOf(t, cli.Operations, now)+"\n",
			"  Backup Item Operations:  ")
		want = append(want, "== reconcile (Progress panics)\n  Reconcile returned: velstatus: host callback: ",
			"callback panicked: plugin connection lost")
		text := string(out)
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("at %s the example lacks %q:\n%s", now, w, text)
			}
		}
		t.Logf("example output at %s:\n%s", now, text)
	}
}

// summaryOf aggregates the CLI's records after a pass, through the binding.
func summaryOf(t *testing.T, records []json.RawMessage, now string) string {
	t.Helper()
	var buf bytes.Buffer
	buf.WriteString("[")
	for i, r := range records {
		if i > 0 {
			buf.WriteString(",")
		}
		buf.Write(r)
	}
	buf.WriteString("]")
	ol, err := DecodeOpList(KindBackup, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	defer ol.Close()
	tm, _ := time.Parse(time.RFC3339, now)
	p, err := ol.Progress(tm)
	if err != nil {
		t.Fatal(err)
	}
	return p.Summary
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
