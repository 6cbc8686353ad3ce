// Command idps runs the two test identity providers of package ssotest on
// loopback for the client's end-to-end suite (client/e2e/sso.e2e.ts): an
// OpenID provider (zitadel/oidc's example server) and a SAML IdP
// (crewjam/saml's samlidp), with the same few people at both. It is a test
// tool, never part of Campus.
//
// It writes a service-provider key pair into -dir, prints one JSON line on
// stdout — the CAMPUS_* variables that configure a Campus server at
// -origin for both providers — and then, like an IdP admin, uploads that
// server's SAML metadata from its stable URL as soon as it answers. It
// runs until SIGTERM or SIGINT.
//
//	go run ./sso/ssotest/cmd/idps -origin http://127.0.0.1:8080 -dir /tmp/idps
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"campus/sso/ssotest"
)

// The university as both providers present it; the e2e spec signs in as
// these people.
const (
	oidcName = "Bluewater University"
	samlName = "Bluewater Shibboleth"
)

var people = []ssotest.Person{
	{Username: "asha", Password: "asha-pass", Email: "asha@bwu.edu", Name: "Asha Sen", Affiliation: "student",
		UniversityID: "BWU/BCA/20/123"},
	{Username: "ravi", Password: "ravi-pass", Email: "ravi@staff.bwu.edu", Name: "Ravi Rao", Affiliation: "faculty",
		Department: "Computer Science"},
	// Mira has a password account already (made by the spec): signing in
	// with her university account needs proof that it is hers.
	{Username: "mira", Password: "mira-pass", Email: "mira@bwu.edu", Name: "Mira Das", Affiliation: "student",
		UniversityID: "BWU/BCA/20/456"},
}

const (
	// These paths are Campus's (app.OIDCCallbackPath, config.SAMLMetadataPath);
	// spelled out so the tool does not link the server's packages.
	oidcCallbackPath = "/api/auth/sso/oidc/callback"
	samlMetadataPath = "/api/auth/sso/saml/metadata"
)

func main() {
	origin := flag.String("origin", "", "the Campus server's public origin (CAMPUS_PUBLIC_ORIGIN)")
	dir := flag.String("dir", "", "where to write the service provider's key pair")
	wait := flag.Duration("register-within", 5*time.Minute, "how long to wait for the server's SAML metadata")
	flag.Parse()
	if *origin == "" || *dir == "" {
		fmt.Fprintln(os.Stderr, "idps: -origin and -dir are required")
		os.Exit(2)
	}
	o := strings.TrimRight(*origin, "/")
	if err := run(o, *dir, *wait); err != nil {
		fmt.Fprintln(os.Stderr, "idps:", err)
		os.Exit(1)
	}
}

func run(origin, dir string, wait time.Duration) error {
	op, err := ssotest.StartOP(ssotest.OPOptions{RedirectURIs: []string{origin + oidcCallbackPath},
		PostLogoutRedirectURIs: []string{origin + "/login"}, People: people})
	if err != nil {
		return err
	}
	defer op.Close()
	idp, err := ssotest.StartIdP("", people)
	if err != nil {
		return err
	}
	defer idp.Close()
	cert, key, err := ssotest.WriteKeyPair(dir, "Campus e2e SP")
	if err != nil {
		return err
	}
	env := map[string]string{
		"CAMPUS_OIDC_NAME":             oidcName,
		"CAMPUS_OIDC_ISSUER":           op.Issuer,
		"CAMPUS_OIDC_CLIENT_ID":        op.ClientID,
		"CAMPUS_OIDC_CLIENT_SECRET":    op.ClientSecret,
		"CAMPUS_SAML_NAME":             samlName,
		"CAMPUS_SAML_IDP_METADATA_URL": idp.MetadataURL,
		"CAMPUS_SAML_SP_CERT":          cert,
		"CAMPUS_SAML_SP_KEY":           key,
		"CAMPUS_SSO_EMAIL_DOMAINS":     "bwu.edu",
	}
	line, err := json.Marshal(env)
	if err != nil {
		return err
	}
	if _, err := fmt.Println(string(line)); err != nil {
		return err
	}
	say("idps: OpenID provider at %s, SAML IdP at %s", op.Issuer, idp.URL)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go register(ctx, idp, origin+samlMetadataPath, wait)
	<-ctx.Done()
	return nil
}

// register uploads the server's SAML metadata to the IdP once the server
// serves it (it starts after this tool has printed its variables).
func register(ctx context.Context, idp *ssotest.IdP, metadataURL string, wait time.Duration) {
	client := &http.Client{Timeout: 5 * time.Second}
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		if md, err := fetch(ctx, client, metadataURL); err == nil {
			if err := idp.RegisterSP("campus", md); err != nil {
				say("idps: registering the service provider: %v", err)
				return
			}
			say("idps: service provider registered from %s", metadataURL)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(250 * time.Millisecond):
		}
	}
	say("idps: no SAML metadata at %s within %s", metadataURL, wait)
}

// say reports on stderr (stdout carries only the variables).
func say(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
}

func fetch(ctx context.Context, client *http.Client, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", u, resp.Status)
	}
	return io.ReadAll(resp.Body)
}
