// Package monitoring_test checks deploy/monitoring: the Prometheus alert
// rules with Prometheus's own promtool (syntax, then the unit tests in
// alerts_test.yaml), and that the rules and the Grafana dashboard only read
// series a Campus node exports.
package monitoring_test

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// promtool finds Debian's promtool (package prometheus, which `make test`
// installs through scripts/ensure-system.sh --prometheus). Outside CI a
// machine without it skips, saying so; in CI its absence fails.
func promtool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("promtool")
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("promtool not found (CI=%s): run scripts/ensure-system.sh --prometheus", os.Getenv("CI"))
	}
	t.Skip("promtool not found: `scripts/ensure-system.sh --prometheus` installs Debian's prometheus package (make test does)")
	return ""
}

func TestAlertRules(t *testing.T) {
	bin := promtool(t)
	for _, args := range [][]string{
		{"check", "rules", "alerts.yaml"},
		{"test", "rules", "alerts_test.yaml"},
	} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Errorf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// ruleFile is what the test reads of alerts.yaml.
type ruleFile struct {
	Groups []struct {
		Name  string `json:"name"`
		Rules []struct {
			Alert       string            `json:"alert"`
			Expr        string            `json:"expr"`
			For         string            `json:"for"`
			Labels      map[string]string `json:"labels"`
			Annotations map[string]string `json:"annotations"`
		} `json:"rules"`
	} `json:"groups"`
}

// dashboard is what the test reads of grafana-dashboard.json.
type dashboard struct {
	UID    string `json:"uid"`
	Title  string `json:"title"`
	Panels []struct {
		ID      int    `json:"id"`
		Type    string `json:"type"`
		Title   string `json:"title"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
}

// seriesName matches the series a PromQL expression reads.
var seriesName = regexp.MustCompile(`\b(campus_[a-z0-9_]+|go_[a-z0-9_]+|process_[a-z0-9_]+|up)\b`)

// standard are the series of client_golang's collectors that campus
// registers (Go runtime, process, database/sql pool).
var standard = []string{
	"up", "go_goroutines", "process_resident_memory_bytes", "process_cpu_seconds_total",
	"go_sql_in_use_connections", "go_sql_max_open_connections", "go_sql_wait_count_total", "go_sql_wait_duration_seconds_total",
}

// exported reads the campus_* series names declared in the node's Go
// sources (tests and third_party excluded).
func exported(t *testing.T) map[string]bool {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	quoted := regexp.MustCompile(`"(campus_[a-z0-9_]+)"`)
	names := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "third_party", "client", "var", "bin", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range quoted.FindAllSubmatch(b, -1) {
			names[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 10 {
		t.Fatalf("found only %d campus_ series in the sources", len(names))
	}
	return names
}

// checkSeries fails for each series expr reads that no node exports.
func checkSeries(t *testing.T, where, expr string, names map[string]bool) {
	t.Helper()
	if strings.TrimSpace(expr) == "" {
		t.Errorf("%s: no expression", where)
		return
	}
	for _, n := range seriesName.FindAllString(expr, -1) {
		base := n
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			if s, ok := strings.CutSuffix(n, suffix); ok && names[s] {
				base = s
			}
		}
		if !names[base] && !slices.Contains(standard, base) {
			t.Errorf("%s reads %s, which no Campus node exports", where, n)
		}
	}
}

func TestRulesAndDashboardReadExportedSeries(t *testing.T) {
	names := exported(t)

	b, err := os.ReadFile("alerts.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var rules ruleFile
	if err := yaml.UnmarshalStrict(b, &rules); err != nil {
		t.Fatalf("alerts.yaml: %v", err)
	}
	seen := map[string]bool{}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" || seen[r.Alert] {
				t.Errorf("group %s: a rule without a name or a duplicate: %q", g.Name, r.Alert)
			}
			seen[r.Alert] = true
			if s := r.Labels["severity"]; s != "warning" && s != "critical" {
				t.Errorf("%s: severity %q, want warning or critical", r.Alert, s)
			}
			if r.Annotations["summary"] == "" || r.Annotations["description"] == "" {
				t.Errorf("%s: summary and description are what the person paged reads", r.Alert)
			}
			checkSeries(t, r.Alert, r.Expr, names)
		}
	}
	if len(seen) < 10 {
		t.Errorf("only %d alerts", len(seen))
	}

	b, err = os.ReadFile("grafana-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("grafana-dashboard.json: %v", err)
	}
	if d.UID == "" || d.Title == "" {
		t.Error("the dashboard needs a uid and a title (its import keeps them)")
	}
	ids := map[int]bool{}
	for _, p := range d.Panels {
		if ids[p.ID] {
			t.Errorf("panel id %d twice", p.ID)
		}
		ids[p.ID] = true
		if p.Type == "row" {
			continue
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, q := range p.Targets {
			checkSeries(t, "panel "+p.Title, q.Expr, names)
		}
	}
	// What issue 26 asks the metrics for is on the dashboard.
	all := string(b)
	for _, want := range []string{"campus_websockets_open", "go_sql_in_use_connections", "go_sql_wait_count_total",
		"campus_mail_outbox_depth", "campus_push_outbox_depth", "campus_search_index_lag_seconds",
		"campus_cluster_members", "campus_build_info"} {
		if !strings.Contains(all, want) {
			t.Errorf("the dashboard does not show %s", want)
		}
	}
}
