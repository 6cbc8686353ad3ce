package s3test

import (
	"os"
	"strings"
	"testing"
)

// TestScriptBuildsThisVersion: scripts/ensure-system.sh prebuilds the server
// the tests use; if the two versions drift, every clean run builds twice.
func TestScriptBuildsThisVersion(t *testing.T) {
	b, err := os.ReadFile("../../scripts/ensure-system.sh")
	if err != nil {
		t.Fatal(err)
	}
	if want := "VERSITYGW_VERSION=" + Version + "\n"; !strings.Contains(string(b), want) {
		t.Fatalf("scripts/ensure-system.sh does not set %q", strings.TrimSpace(want))
	}
}
