package app

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"campus/domain"
	"campus/persistence"
)

func TestKeysetRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 30, 45, 123456000, time.UTC)
	tests := []persistence.Keyset{
		{At: at, ID: persistence.NewID()},
		{Key: "asha rao", ID: persistence.NewID()},
		{Key: "ünïcode, \"quoted\"", At: at, ID: persistence.NewID()},
	}
	for _, k := range tests {
		t.Run(k.Key, func(t *testing.T) {
			got, err := decodeKeyset(encodeKeyset(k))
			if err != nil || got.ID != k.ID || got.Key != k.Key || !got.At.Equal(k.At) {
				t.Fatalf("round trip %+v → %+v, %v", k, got, err)
			}
		})
	}
	if k, err := decodeKeyset(""); err != nil || !k.IsZero() {
		t.Fatalf("empty cursor: %+v %v", k, err)
	}
}

func TestKeysetRefusesGarbage(t *testing.T) {
	id := persistence.NewID().String()
	// cursor is what encodeKeyset would make of any JSON.
	cursor := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	at := func(us int64) string { return cursor(fmt.Sprintf(`{"t":%d,"i":%q}`, us, id)) }
	tests := []struct{ name, cursor string }{
		{"not base64", "!!!"},
		{"not json", cursor("not json")},
		{"no id", cursor("{}")},
		{"bad id", cursor(`{"i":"nope"}`)},
		{"nil id", cursor(`{"i":"00000000-0000-0000-0000-000000000000"}`)},
		{"time not a number", cursor(`{"t":"x","i":"` + id + `"}`)},
		{"time overflows", cursor(`{"t":1e400,"i":"` + id + `"}`)},
		{"largest time", at(math.MaxInt64)},
		{"smallest time", at(math.MinInt64)},
		{"year 300000", at(time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro())},
		{"year 10000", at(time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro())},
		{"year 0", at(time.Date(0, 12, 31, 0, 0, 0, 0, time.UTC).UnixMicro())},
		{"year -4713", at(time.Date(-4713, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro())},
		{"NUL in key", cursor(`{"k":"a\u0000b","i":"` + id + `"}`)},
		{"only NUL key", cursor(`{"k":"\u0000","i":"` + id + `"}`)},
		{"too long", cursor(`{"k":"` + strings.Repeat("k", 600) + `","i":"` + id + `"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := decodeKeyset(tt.cursor); !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("decodeKeyset(%q) = %v, want a 400", tt.cursor, err)
			}
		})
	}
}

func TestKeysetTakesEveryStorableYear(t *testing.T) {
	id := persistence.NewID()
	for _, at := range []time.Time{
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC), // before the epoch: a negative cursor time
		time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC),
	} {
		t.Run(at.String(), func(t *testing.T) {
			got, err := decodeKeyset(encodeKeyset(persistence.Keyset{At: at, ID: id}))
			if err != nil || !got.At.Equal(at) {
				t.Fatalf("decodeKeyset = %v, %v; want %v", got.At, err, at)
			}
		})
	}
}

func TestKeysetLimit(t *testing.T) {
	tests := []struct{ in, want int }{{0, 20}, {-5, 20}, {1, 1}, {100, 100}, {101, 100}, {1 << 30, 100}}
	for _, tt := range tests {
		if got := keysetLimit(tt.in, 20, 100); got != tt.want {
			t.Errorf("keysetLimit(%d) = %d, want %d", tt.in, got, tt.want)
		}
	}
}
