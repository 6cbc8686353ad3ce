package app

import (
	"testing"

	"campus/domain"
)

func TestOwnsImage(t *testing.T) {
	const url, key = "/media/0123456789abcdef0123456789abcdef.png", "0123456789abcdef0123456789abcdef.png"
	tests := []struct {
		name     string
		ref      domain.ImageRef
		url, key string
		want     bool
	}{
		{"nothing named", domain.ImageRef{}, url, key, true},
		{"nothing named, nothing stored", domain.ImageRef{}, "", "", true},
		{"by public id", domain.ImageRef{PublicID: key}, url, key, true},
		{"by public id and url", domain.ImageRef{URL: url, PublicID: key}, url, key, true},
		{"by url only", domain.ImageRef{URL: url}, url, key, true},
		{"public id of another file", domain.ImageRef{PublicID: "ffff.png"}, url, key, false},
		{"right id, wrong url", domain.ImageRef{URL: "https://evil.example/x.png", PublicID: key}, url, key, false},
		{"a made-up url", domain.ImageRef{URL: "https://evil.example/x.png"}, url, key, false},
		{"anything when nothing is stored", domain.ImageRef{URL: "/media/x.png", PublicID: "x.png"}, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ownsImage(tt.ref, tt.url, tt.key); got != tt.want {
				t.Fatalf("ownsImage(%+v, %q, %q) = %v, want %v", tt.ref, tt.url, tt.key, got, tt.want)
			}
		})
	}
}
