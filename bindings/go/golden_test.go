// SPDX-License-Identifier: Apache-2.0

package velstatus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The tests compare the binding with the velstatus CLI through golden files
// kept in the source tree (tests/data/cli-golden: <key>.args, one argument a
// line with paths relative to the top of the tree, and <key>.out, the CLI's
// exact stdout), so `go test ./...` needs no built CLI. tests/cli-golden.sh
// (make check) runs every recorded command through the built CLI and fails
// on any difference, so the files cannot drift from the tool.
//
// To record a new command: run the tests once with VS_CLI_GOLDEN_RECORD=1 and
// VELSTATUS set to a built tools/velstatus; missing pairs are written.

// topSrcdir is the top of the source tree, two directories above this package.
func topSrcdir(t *testing.T) string {
	t.Helper()
	top, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return top
}

// goldenKey normalises args (paths relative to the top of the tree, with
// slashes) and returns them with the key naming their golden pair.
func goldenKey(t *testing.T, args []string) ([]string, string) {
	t.Helper()
	top := topSrcdir(t)
	norm := make([]string, len(args))
	for i, a := range args {
		norm[i] = a
		if _, err := os.Stat(a); err != nil {
			continue
		}
		abs, err := filepath.Abs(a)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(top, abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			t.Fatalf("velstatus argument %s is outside the source tree: golden files cannot name it", a)
		}
		norm[i] = filepath.ToSlash(rel)
	}
	sum := sha256.Sum256([]byte(strings.Join(norm, "\n") + "\n"))
	return norm, hex.EncodeToString(sum[:8])
}

// runCLI returns what `velstatus args...` prints (without the final newline),
// from its golden file.
func runCLI(t *testing.T, args ...string) []byte {
	t.Helper()
	norm, key := goldenKey(t, args)
	base := filepath.Join(topSrcdir(t), "tests", "data", "cli-golden", key)
	out, err := os.ReadFile(base + ".out")
	if os.IsNotExist(err) && os.Getenv("VS_CLI_GOLDEN_RECORD") == "1" {
		out = recordGolden(t, base, norm)
	} else if err != nil {
		t.Fatalf("no golden output for `velstatus %s` (%v): record it with VS_CLI_GOLDEN_RECORD=1 VELSTATUS=tools/velstatus",
			strings.Join(norm, " "), err)
	}
	return bytes.TrimSuffix(out, []byte("\n"))
}

// recordGolden runs $VELSTATUS from the top of the tree and writes the pair.
func recordGolden(t *testing.T, base string, norm []string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(os.Getenv("VELSTATUS"), norm...)
	cmd.Dir = topSrcdir(t)
	cmd.Env = append(os.Environ(), "TZ=UTC") // describe-operations prints local time; goldens hold UTC
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("velstatus %s: %v\n%s", strings.Join(norm, " "), err, stderr.Bytes())
	}
	if err := os.WriteFile(base+".args", []byte(strings.Join(norm, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".out", stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return stdout.Bytes()
}
