package main

import (
	"bytes"
	"regexp"
	"testing"

	"github.com/rs/zerolog"

	"campus/config"
)

// TestLogTimestamps: the logs' timestamps are UTC to the millisecond.
func TestLogTimestamps(t *testing.T) {
	var buf bytes.Buffer
	log := newLogger(config.Config{LogFormat: "json", LogLevel: zerolog.InfoLevel}, &buf)
	log.Info().Msg("hello")
	if !regexp.MustCompile(`"time":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"`).Match(buf.Bytes()) {
		t.Fatalf("line %s: want a UTC timestamp with milliseconds", buf.String())
	}
}
