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

func TestExampleRuns(t *testing.T) {
	bin := buildExample(t)
	out, err := exec.Command(bin).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, out)
	}
	if !strings.Contains(string(out), "libvelstatus "+Version()) {
		t.Errorf("example output lacks the version:\n%s", out)
	}
}
