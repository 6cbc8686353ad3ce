package cluster

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenSSLSteps runs the openssl commands the README gives for making
// the remoting certificates by hand, exactly as written there, and loads
// what they make as a node would.
func TestOpenSSLSteps(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Skip("openssl is not installed (Debian package openssl)")
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "<!-- openssl-cluster-certs -->")
	if !ok {
		t.Fatal("README.md has no <!-- openssl-cluster-certs --> block")
	}
	_, after, ok = strings.Cut(after, "```sh\n")
	script, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok2 || !strings.Contains(script, "openssl") {
		t.Fatalf("no sh block after the marker: %q", after[:min(len(after), 200)])
	}
	dir := t.TempDir()
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's openssl steps: %v\n%s\n%s", err, script, out)
	}
	c, err := LoadTLS(filesIn(dir), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Until(c.NotAfter); d < 729*24*time.Hour {
		t.Errorf("the certificate is valid for %s, want 730 days", d)
	}
	for name, want := range map[string]os.FileMode{CAKeyFile: 0o600, KeyFile: 0o600} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", name, fi.Mode().Perm(), want)
		}
	}
	// campus cluster certs renews a node certificate under a CA openssl made.
	if _, err := WriteCerts(dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadTLS(filesIn(dir), time.Now()); err != nil {
		t.Fatal(err)
	}
}
