package app

import (
	"errors"
	"testing"
)

// TestValidPushEndpoint is the SSRF rule: https on public addresses only,
// plain http on loopback only with the tests' flag.
func TestValidPushEndpoint(t *testing.T) {
	cases := []struct {
		endpoint      string
		allowLoopback bool
		ok            bool
	}{
		{"https://fcm.googleapis.com/fcm/send/abc", false, true},
		{"https://updates.push.services.mozilla.com/wpush/v2/x", false, true},
		{"https://8.8.8.8/x", false, true},
		{"http://fcm.googleapis.com/fcm/send/abc", false, false},
		{"http://127.0.0.1:8080/push", false, false},
		{"http://127.0.0.1:8080/push", true, true},
		{"http://[::1]:8080/push", true, true},
		{"http://localhost:8080/push", true, true},
		{"http://push.example.com/x", true, false},
		{"https://127.0.0.1/push", false, false},
		{"https://localhost/push", false, false},
		{"https://api.localhost/push", false, false},
		{"https://10.1.2.3/x", false, false},
		{"https://192.168.0.1/x", false, false},
		{"https://100.64.0.1/x", false, false},
		{"https://169.254.169.254/latest/meta-data", false, false},
		{"https://[fd00::1]/x", false, false},
		{"https://[::ffff:10.0.0.1]/x", false, false},
		{"https://0.0.0.0/x", false, false},
		{"https://user:pw@push.example.com/x", false, false},
		{"ftp://push.example.com/x", false, false},
		{"push.example.com/x", false, false},
		{"", false, false},
		{"https://push.example.com/" + string(make([]byte, 2100)), false, false},
	}
	for _, c := range cases {
		t.Run(c.endpoint, func(t *testing.T) {
			err := ValidPushEndpoint(c.endpoint, c.allowLoopback)
			if (err == nil) != c.ok {
				t.Fatalf("ValidPushEndpoint(%q, %v) = %v, want ok=%v", c.endpoint, c.allowLoopback, err, c.ok)
			}
		})
	}
}

// TestPushDialControl refuses to connect to addresses that are not public,
// whatever name resolved to them.
func TestPushDialControl(t *testing.T) {
	cases := []struct {
		addr          string
		allowLoopback bool
		ok            bool
	}{
		{"142.250.1.1:443", false, true},
		{"[2a00:1450::1]:443", false, true},
		{"127.0.0.1:443", false, false},
		{"127.0.0.1:443", true, true},
		{"10.0.0.1:443", true, false},
		{"169.254.169.254:80", false, false},
		{"[::1]:443", false, false},
		{"[fe80::1]:443", false, false},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			err := pushDialControl(c.allowLoopback)("tcp", c.addr, nil)
			if (err == nil) != c.ok || (err != nil && !errors.Is(err, errPrivateAddr)) {
				t.Fatalf("dial %s (loopback %v): %v, want ok=%v", c.addr, c.allowLoopback, err, c.ok)
			}
		})
	}
}
