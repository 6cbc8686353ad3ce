package app

import (
	"context"
	"crypto/ecdh"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"campus/domain"
	"campus/persistence"
)

// maxPushEndpoint bounds a subscription's endpoint (the schema's check).
const maxPushEndpoint = 2048

var errPushEndpoint = domain.InvalidField("endpoint", "Enter a valid push endpoint")

// PushDeps are what the push subscription use cases need.
type PushDeps struct {
	DB    *bun.DB
	VAPID *ecdh.PrivateKey
	// AllowLoopbackHTTP accepts http:// endpoints on a loopback address (the
	// end-to-end tests' push service). Production leaves it off: only https
	// endpoints on public addresses are accepted (CAMPUS_PUSH_ALLOW_LOOPBACK_HTTP).
	AllowLoopbackHTTP bool
}

// Push manages the per-device Web Push subscriptions of the caller.
type Push struct {
	d PushDeps
}

// NewPush wires the push subscription use cases.
func NewPush(d PushDeps) *Push { return &Push{d: d} }

// PushKey answers GET /api/push/key: the VAPID public key browsers pass to
// pushManager.subscribe as applicationServerKey (base64url, uncompressed).
type PushKey struct {
	PublicKey string `json:"publicKey"`
}

// Key is the server's VAPID public key.
func (a *Push) Key() PushKey {
	return PushKey{PublicKey: base64.RawURLEncoding.EncodeToString(a.d.VAPID.PublicKey().Bytes())}
}

// PushSubscriptionInput is a browser's PushSubscription.toJSON(), the body
// of POST /api/push/subscriptions; DELETE needs only the endpoint.
type PushSubscriptionInput struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// PushSubscriptionView answers a subscribe.
type PushSubscriptionView struct {
	Endpoint string `json:"endpoint"`
	Enabled  bool   `json:"enabled"`
}

// Subscribe turns push on for the device whose subscription in is: stored
// for the caller, or moved to the caller when the device was subscribed for
// another account.
func (a *Push) Subscribe(ctx context.Context, p Principal, in PushSubscriptionInput) (PushSubscriptionView, error) {
	endpoint := strings.TrimSpace(in.Endpoint)
	if err := ValidPushEndpoint(endpoint, a.d.AllowLoopbackHTTP); err != nil {
		return PushSubscriptionView{}, err
	}
	p256dh, err := decodeB64URL(in.Keys.P256dh)
	if err != nil || len(p256dh) != 65 {
		return PushSubscriptionView{}, domain.InvalidField("keys.p256dh", "keys.p256dh must be a P-256 public key")
	}
	if _, err := ecdh.P256().NewPublicKey(p256dh); err != nil {
		return PushSubscriptionView{}, domain.InvalidField("keys.p256dh", "keys.p256dh must be a P-256 public key")
	}
	auth, err := decodeB64URL(in.Keys.Auth)
	if err != nil || len(auth) != 16 {
		return PushSubscriptionView{}, domain.InvalidField("keys.auth", "keys.auth must be a 16-byte secret")
	}
	s := &persistence.PushSubscription{
		UserID: p.UserID, Endpoint: endpoint,
		P256dh: base64.RawURLEncoding.EncodeToString(p256dh),
		Auth:   base64.RawURLEncoding.EncodeToString(auth),
	}
	if err := persistence.SavePushSubscription(ctx, a.d.DB, s); err != nil {
		return PushSubscriptionView{}, err
	}
	return PushSubscriptionView{Endpoint: endpoint, Enabled: true}, nil
}

// Unsubscribe turns push off for the caller's device with the endpoint.
// Turning off what is already off succeeds: the device's state is what
// the caller asked for either way.
func (a *Push) Unsubscribe(ctx context.Context, p Principal, in PushSubscriptionInput) (PushSubscriptionView, error) {
	endpoint := strings.TrimSpace(in.Endpoint)
	if endpoint == "" || len(endpoint) > maxPushEndpoint || !utf8.ValidString(endpoint) {
		return PushSubscriptionView{}, errPushEndpoint
	}
	if _, err := persistence.DeletePushSubscription(ctx, a.d.DB, p.UserID, endpoint); err != nil {
		return PushSubscriptionView{}, err
	}
	return PushSubscriptionView{Endpoint: endpoint, Enabled: false}, nil
}

// decodeB64URL reads base64url with or without padding (browsers send it
// unpadded; some libraries pad).
func decodeB64URL(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(strings.TrimSpace(s), "="))
}

// ValidPushEndpoint is the SSRF rule for push endpoints: the server POSTs to
// whatever URL a browser gave it, so only https URLs are accepted, and not
// on an address literal that is private, loopback, link-local or otherwise
// not public. allowLoopbackHTTP (tests only) also accepts http:// on a
// loopback address. Names are checked again when dialled (pushDialControl),
// since a public name may resolve to a private address.
func ValidPushEndpoint(raw string, allowLoopbackHTTP bool) error {
	if raw == "" || len(raw) > maxPushEndpoint || !utf8.ValidString(raw) {
		return errPushEndpoint
	}
	u, err := url.Parse(raw)
	if err != nil || u.User != nil || u.Host == "" || u.Opaque != "" {
		return errPushEndpoint
	}
	host := u.Hostname()
	addr, isIP := netip.ParseAddr(host)
	loopback := host == "localhost" || (isIP == nil && addr.IsLoopback())
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && allowLoopbackHTTP && loopback:
		return nil
	default:
		return domain.InvalidField("endpoint", "The push endpoint must be an https URL")
	}
	if loopback && allowLoopbackHTTP {
		return nil
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || (isIP == nil && !publicAddr(addr)) {
		return domain.InvalidField("endpoint", "The push endpoint must be a public address")
	}
	return nil
}

// publicAddr is true of a global unicast address outside the private,
// shared (CGNAT) and unique-local ranges.
func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsGlobalUnicast() && !a.IsPrivate() && !cgnat.Contains(a)
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// pushDialControl refuses connections to addresses that are not public
// (allowLoopback: except loopback), whatever name led there.
func pushDialControl(allowLoopback bool) func(network, address string, c syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("app: push dial %s: %w", address, err)
		}
		a := ap.Addr().Unmap()
		if publicAddr(a) || (allowLoopback && a.IsLoopback()) {
			return nil
		}
		return fmt.Errorf("app: push dial %s: %w", address, errPrivateAddr)
	}
}

var errPrivateAddr = errors.New("address is not public")

// pushDialer dials only what pushDialControl allows.
func pushDialer(allowLoopback bool) *net.Dialer {
	return &net.Dialer{Control: pushDialControl(allowLoopback)}
}
