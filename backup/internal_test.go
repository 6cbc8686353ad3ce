package backup

import (
	"slices"
	"strings"
	"testing"
)

func TestLibpqFrom(t *testing.T) {
	for _, tc := range []struct {
		name, url    string
		wantConninfo []string // each must appear
		wantPassword string
		wantErr      bool
	}{
		{
			name: "embedded server URL",
			url:  "postgres://campus:s3cr%27t@127.0.0.1:41234/campus?sslmode=disable",
			wantConninfo: []string{"host='127.0.0.1'", "port='41234'", "user='campus'", "dbname='campus'",
				"sslmode='disable'"},
			wantPassword: "s3cr't",
		},
		{
			name:         "defaults and pgdriver-only parameters dropped",
			url:          "postgresql://db.internal/app?read_timeout=5s&application_name=x",
			wantConninfo: []string{"host='db.internal'", "port='5432'", "user='postgres'", "dbname='app'", "application_name=campus-backup"},
		},
		{
			name:         "unix socket and quoting",
			url:          "postgres://o%27neil@/my%20db?host=/var/run/postgresql&sslrootcert=/etc/ca.pem",
			wantConninfo: []string{"host='/var/run/postgresql'", `user='o\'neil'`, "dbname='my db'", "sslrootcert='/etc/ca.pem'"},
		},
		{name: "not postgres", url: "mysql://root:hunter2@db/app", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := libpqFrom(tc.url)
			if tc.wantErr {
				if err == nil || strings.Contains(err.Error(), "hunter2") {
					t.Fatalf("err = %v, want an error that does not quote the password", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.wantConninfo {
				if !strings.Contains(got.conninfo, w) {
					t.Errorf("conninfo %q lacks %q", got.conninfo, w)
				}
			}
			if strings.Contains(got.conninfo, "password") || strings.Contains(got.conninfo, "timeout=5s") {
				t.Errorf("conninfo %q carries a password or a pgdriver parameter", got.conninfo)
			}
			hasPW := slices.Contains(got.env(), "PGPASSWORD="+tc.wantPassword)
			if (tc.wantPassword != "") != hasPW {
				t.Errorf("env %q, want password %q", got.env(), tc.wantPassword)
			}
		})
	}
}

func TestHumanBytes(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {999, "999 B"}, {1000, "1.0 kB"}, {1_500_000, "1.5 MB"}, {2_000_000_000, "2.0 GB"}} {
		if got := humanBytes(tc.n); got != tc.want {
			t.Errorf("humanBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestCheckKey(t *testing.T) {
	for _, tc := range []struct {
		key string
		ok  bool
	}{
		{"0123456789abcdef0123456789abcdef.jpg", true},
		{"../../etc/passwd", false},
		{"ab/cd.png", false},
		{".upload-123", false},
		{"ab", false},
		{`a\b.png`, false},
	} {
		if err := checkKey(tc.key); (err == nil) != tc.ok {
			t.Errorf("checkKey(%q) = %v, want ok=%v", tc.key, err, tc.ok)
		}
	}
}
