package app

import (
	"errors"
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
	for _, c := range []string{"!!!", "bm90IGpzb24", "e30", "eyJpIjoibm9wZSJ9"} { // "not json", "{}", {"i":"nope"}
		t.Run(c, func(t *testing.T) {
			if _, err := decodeKeyset(c); !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("decodeKeyset(%q) = %v, want a 400", c, err)
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
