package docs

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// mayImport is docs/architecture.md §2.1 as a table: the packages of ours
// each package's code (not its tests) may import. A package that is not
// listed fails the test, so a new package takes a place in the layers when
// it is made; "*" is the wiring (the campus binary and the benchmark), which
// may import anything.
var mayImport = map[string][]string{
	"campus":                    {"*"},
	"campus/bench":              {"*"},
	"campus/httpapi":            {"app", "config", "domain", "persistence", "protocol", "rawio", "realtime"},
	"campus/realtime":           {"actors", "domain", "protocol", "rawio"},
	"campus/app":                {"config", "domain", "mail", "media", "persistence", "protocol", "searchindex", "sso"},
	"campus/actors":             {"domain", "persistence", "protocol"},
	"campus/backup":             {"domain", "media", "persistence", "persistence/pgserver"},
	"campus/searchindex":        {"domain", "persistence"},
	"campus/mail":               {"domain"},
	"campus/media":              {"domain"},
	"campus/persistence":        {"domain", "rawio"},
	"campus/persistence/testdb": {"persistence", "persistence/pgserver"},
	"campus/domain":             {},
	"campus/protocol":           {},
	"campus/sso":                {},
	"campus/config":             {},
	"campus/cluster":            {"rawio"},
	"campus/testlog":            {},
	"campus/docs":               {},
	"campus/faults":             {},
	"campus/deploy/kubernetes":  {},
	// The container image's builder and its command (make image).
	"campus/deploy/image":         {},
	"campus/deploy/image/mkimage": {"deploy/image"},
	// Test servers and clients, for tests only.
	"campus/persistence/pgserver": {},
	"campus/mail/smtptest":        {},
	"campus/media/s3test":         {},
	"campus/httpapi/wstest":       {},
	"campus/cluster/clustertest":  {"cluster"},
	"campus/bench/netlab":         {},
	"campus/cluster/etcdtest":     {"freeport"},
	// Ports below the ephemeral range for servers tests and the bench start.
	"campus/freeport": {},
	// Socket reads and writes as system calls (the servers' hot paths).
	"campus/rawio":       {},
	"campus/sso/ssotest": {},
	// The e2e suite's identity providers (make idps).
	"campus/sso/ssotest/cmd/idps": {"sso/ssotest"},
}

// TestLayers: every package's code imports only what mayImport allows it,
// so dependencies point one way (httpapi → app → persistence → domain; the
// live core below app's interfaces, never imported by app).
func TestLayers(t *testing.T) {
	root := moduleRoot(t)
	imports := map[string]map[string]bool{} // package → packages of ours its code imports
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "third_party", "testdata", "client", "var", "bin":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := "campus"
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if ours, ok := strings.CutPrefix(p, "campus/"); ok {
				imports[pkg][ours] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(imports) < 10 {
		t.Fatalf("found only %d packages under %s", len(imports), root)
	}
	for pkg, deps := range imports {
		allowed, listed := mayImport[pkg]
		if !listed {
			t.Errorf("%s is in no layer: give it a place in mayImport and docs/architecture.md §2.1", pkg)
			continue
		}
		if slices.Contains(allowed, "*") {
			continue
		}
		for dep := range deps {
			if !slices.Contains(allowed, dep) {
				t.Errorf("%s imports campus/%s, which its layer may not (docs/architecture.md §2.1)", pkg, dep)
			}
		}
	}
}
