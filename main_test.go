package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestUsage covers the answers given before any configuration is read.
func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string // on stderr
		wantOut  string // on stdout
	}{
		{name: "no command", wantCode: 2, wantErr: "campus backup DIR"},
		{name: "help lists backup and restore", args: []string{"help"}, wantCode: 0, wantOut: "campus restore DIR"},
		{name: "backup without a directory", args: []string{"backup"}, wantCode: 2, wantErr: "want exactly one directory"},
		{name: "restore with two directories", args: []string{"restore", "a", "b"}, wantCode: 2, wantErr: "want exactly one directory"},
		{name: "unknown flag", args: []string{"backup", "-x", "dir"}, wantCode: 2, wantErr: "-x"},
		{name: "unknown command", args: []string{"dump"}, wantCode: 2, wantErr: `unknown command "dump"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, &stdout, &stderr); code != tc.wantCode {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tc.wantCode, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.wantErr) || !strings.Contains(stdout.String(), tc.wantOut) {
				t.Errorf("stdout %q, stderr %q; want %q and %q in them", stdout.String(), stderr.String(), tc.wantOut, tc.wantErr)
			}
		})
	}
}
