package domain

import "strings"

// MaxReturnPathLength bounds the path a sign-in returns to.
const MaxReturnPathLength = 512

// SafeReturnPath is p when it is a path of our own site to send someone
// back to after signing in, else "/". Only an absolute path is ours: a
// scheme, a host ("//evil.example", "/\evil.example", which browsers read
// as a host too), control characters and the API are refused, so a sign-in
// can never end on another site (no open redirect).
func SafeReturnPath(p string) string {
	if p == "" || len(p) > MaxReturnPathLength || p[0] != '/' {
		return "/"
	}
	if len(p) > 1 && (p[1] == '/' || p[1] == '\\') {
		return "/"
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f || c == '\\' {
			return "/"
		}
	}
	if p == "/api" || strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/api?") {
		return "/"
	}
	return p
}
