package app

import (
	"fmt"
	"testing"
	"time"
)

// frozen sets every limiter of a to a clock the test moves by hand, and
// answers the function that moves it.
func frozen(a *Accounts) func(time.Duration) {
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	for _, l := range []*Limiter{a.loginPerAccount, a.loginPerIP, a.signupPerIP, a.codesPerAddress, a.codesPerIP} {
		l.now = clock
	}
	return func(d time.Duration) { now = now.Add(d) }
}

// TestCampusWiFiLimits counts what the account limits, as production sets
// them, let through: a lecture hall of 1,000 students signing up from one
// NAT address within 10 minutes gets in (sign-up, a resend each, a login
// each), while the limits keyed on the target mailbox and on the account
// still stop abuse from however many addresses.
func TestCampusWiFiLimits(t *testing.T) {
	const hall = "10.20.0.1"
	type step struct {
		limiter func(a *Accounts) *Limiter
		key     func(i int) string
	}
	signup := []step{
		{func(a *Accounts) *Limiter { return a.signupPerIP }, func(int) string { return hall }},
		{func(a *Accounts) *Limiter { return a.codesPerAddress }, func(i int) string { return fmt.Sprintf("student%d@uni.edu", i) }},
	}
	resend := []step{
		{func(a *Accounts) *Limiter { return a.codesPerIP }, func(int) string { return hall }},
		{func(a *Accounts) *Limiter { return a.codesPerAddress }, func(i int) string { return fmt.Sprintf("student%d@uni.edu", i) }},
	}
	login := []step{
		{func(a *Accounts) *Limiter { return a.loginPerIP }, func(int) string { return hall }},
		{func(a *Accounts) *Limiter { return a.loginPerAccount }, func(i int) string { return fmt.Sprintf("login:student%d@uni.edu", i) }},
	}
	oneMailbox := []step{
		{func(a *Accounts) *Limiter { return a.signupPerIP }, func(i int) string { return fmt.Sprintf("10.0.%d.%d", i/250, i%250) }},
		{func(a *Accounts) *Limiter { return a.codesPerAddress }, func(int) string { return "victim@uni.edu" }},
	}
	oneAccount := []step{
		{func(a *Accounts) *Limiter { return a.loginPerIP }, func(i int) string { return fmt.Sprintf("10.1.%d.%d", i/250, i%250) }},
		{func(a *Accounts) *Limiter { return a.loginPerAccount }, func(int) string { return "login:victim@uni.edu" }},
	}
	tests := []struct {
		name  string
		flows [][]step
		n     int
		// every is the time between one attempt and the next.
		every time.Duration
		want  int // attempts admitted
	}{
		{"1,000 sign-ups from one address over 10 minutes", [][]step{signup}, 1000, 600 * time.Millisecond, 1000},
		{"1,000 sign-ups from one address at the same instant", [][]step{signup}, 1000, 0, 1000},
		{"1,000 students sign up, ask for a code again and log in, in 10 minutes", [][]step{signup, resend, login}, 1000, 600 * time.Millisecond, 1000},
		{"one address is still bounded: 1,500 sign-ups at the same instant", [][]step{signup}, 1500, 0, 1000},
		{"one mailbox from 1,000 addresses: 5 codes", [][]step{oneMailbox}, 1000, 0, 5},
		{"one mailbox over 10 minutes: 5 codes and one more refilled", [][]step{oneMailbox}, 1000, 600 * time.Millisecond, 6},
		{"one account's password from 1,000 addresses: 10 tries", [][]step{oneAccount}, 1000, 0, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := NewAccounts(AccountsDeps{RateLimits: true})
			tick := frozen(a)
			admitted := 0
			for i := range tc.n {
				ok := true
				for _, flow := range tc.flows {
					for _, s := range flow {
						// In the use cases' order; the first refusal ends the call.
						if allowed, wait := s.limiter(a).Allow(s.key(i)); !allowed {
							if wait < 1 {
								t.Fatalf("attempt %d refused with wait %d", i, wait)
							}
							ok = false
							break
						}
					}
					if !ok {
						break
					}
				}
				if ok {
					admitted++
				}
				tick(tc.every)
			}
			if admitted != tc.want {
				t.Fatalf("admitted %d of %d, want %d", admitted, tc.n, tc.want)
			}
		})
	}
}
