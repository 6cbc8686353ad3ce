package domain

import "testing"

func TestSafeReturnPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "/"},
		{"/", "/"},
		{"/feed", "/feed"},
		{"/post/123?c=1#x", "/post/123?c=1#x"},
		{"/settings", "/settings"},
		{"https://evil.example/", "/"},
		{"//evil.example/x", "/"},
		{"/\\evil.example", "/"},
		{"\\\\evil.example", "/"},
		{"/a\\b", "/"},
		{"javascript:alert(1)", "/"},
		{"feed", "/"},
		{"/x\r\nSet-Cookie: a=b", "/"},
		{"/\tevil", "/"},
		{"/api/auth/logout", "/"},
		{"/api", "/"},
		{"/apiary", "/apiary"},
		{"/" + string(make([]byte, MaxReturnPathLength)), "/"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := SafeReturnPath(tt.in); got != tt.want {
				t.Errorf("SafeReturnPath(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
