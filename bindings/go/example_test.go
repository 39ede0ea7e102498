package velstatus

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
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
		cli := string(runCLI(t, "server-status", "-o", "json", f))
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

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
