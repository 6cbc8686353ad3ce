package ssotest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Browser is a cookie-keeping HTTP client that walks the sign-in pages of
// the test identity providers the way a person's browser does (without
// running their scripts: it submits the forms itself). It stops at the
// Campus client's /sso/callback page and reads its fragment.
type Browser struct {
	Client *http.Client
	// Origin is Campus's; a redirect to Origin + /sso/callback ends a walk.
	Origin string
	// Callbacks are the protocol callback URLs the walks went through
	// (the OIDC callback with its code and state), for replaying one.
	Callbacks []*url.URL
}

// NewBrowser is a browser with an empty cookie jar.
func NewBrowser(origin string) *Browser {
	jar, _ := cookiejar.New(nil)
	b := &Browser{Origin: origin}
	b.Client = &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > 20 {
				return errors.New("too many redirects")
			}
			if strings.HasPrefix(req.URL.Path, "/api/auth/sso/") {
				b.Callbacks = append(b.Callbacks, req.URL)
			}
			if req.URL.Path == "/sso/callback" {
				return http.ErrUseLastResponse
			}
			return nil
		}}
	return b
}

// JSON sends a JSON request to Campus and answers the status and the
// decoded envelope.
func (b *Browser) JSON(method, path, token string, body any) (int, map[string]any, error) {
	var r io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		r = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, b.Origin+path, r)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := b.Client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	var env map[string]any
	if err := json.Unmarshal(raw, &env); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("not JSON (%d): %.300s", resp.StatusCode, raw)
	}
	return resp.StatusCode, env, nil
}

// Page is an HTML page reached on a walk.
type Page struct {
	URL  *url.URL
	Body string
}

// Get fetches u, following redirects; a redirect to the callback page
// answers its fragment instead of a page.
func (b *Browser) Get(u string) (*Page, url.Values, error) {
	resp, err := b.Client.Get(u)
	if err != nil {
		return nil, nil, err
	}
	return b.land(resp)
}

// Post submits a form to u, following redirects like Get.
func (b *Browser) Post(u string, form url.Values) (*Page, url.Values, error) {
	resp, err := b.Client.PostForm(u, form)
	if err != nil {
		return nil, nil, err
	}
	return b.land(resp)
}

func (b *Browser) land(resp *http.Response) (*Page, url.Values, error) {
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode/100 == 3 {
		loc, err := resp.Location()
		if err != nil {
			return nil, nil, err
		}
		if loc.Path != "/sso/callback" {
			return nil, nil, fmt.Errorf("redirected to %s", loc)
		}
		frag, err := url.ParseQuery(loc.Fragment)
		return nil, frag, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("%s: %s: %.300s", resp.Request.URL, resp.Status, raw)
	}
	return &Page{URL: resp.Request.URL, Body: string(raw)}, nil, nil
}

var (
	formPattern  = regexp.MustCompile(`(?is)<form[^>]*action="([^"]*)"`)
	inputPattern = regexp.MustCompile(`(?is)<input[^>]*>`)
	namePattern  = regexp.MustCompile(`(?is)\bname="([^"]*)"`)
	valuePattern = regexp.MustCompile(`(?is)\bvalue="([^"]*)"`)
)

// Form reads the page's first form: its action (resolved) and its inputs.
func (p *Page) Form() (string, url.Values, error) {
	m := formPattern.FindStringSubmatch(p.Body)
	if m == nil {
		return "", nil, fmt.Errorf("no form on %s: %.300s", p.URL, p.Body)
	}
	action, err := p.URL.Parse(html.UnescapeString(m[1]))
	if err != nil {
		return "", nil, err
	}
	vals := url.Values{}
	for _, in := range inputPattern.FindAllString(p.Body, -1) {
		n := namePattern.FindStringSubmatch(in)
		if n == nil {
			continue
		}
		v := ""
		if m := valuePattern.FindStringSubmatch(in); m != nil {
			v = html.UnescapeString(m[1])
		}
		vals.Set(html.UnescapeString(n[1]), v)
	}
	return action.String(), vals, nil
}

// StartSignIn asks Campus to start a sign-in (provider "oidc" or "saml")
// and answers the identity provider's URL.
func (b *Browser) StartSignIn(provider, returnTo, token string, link bool, password string) (string, error) {
	status, env, err := b.JSON(http.MethodPost, "/api/auth/sso/start", token,
		map[string]any{"provider": provider, "returnTo": returnTo, "link": link, "password": password})
	if err != nil {
		return "", err
	}
	if status != http.StatusOK {
		return "", fmt.Errorf("start: %d %v", status, env)
	}
	data, _ := env["data"].(map[string]any)
	u, _ := data["url"].(string)
	return u, nil
}

// OIDCLogin walks the OP's login page for authURL as username and answers
// the Campus callback page's fragment.
func (b *Browser) OIDCLogin(authURL, username, password string) (url.Values, error) {
	page, frag, err := b.Get(authURL)
	if err != nil || frag != nil {
		return frag, err
	}
	action, form, err := page.Form()
	if err != nil {
		return nil, err
	}
	form.Set("username", username)
	form.Set("password", password)
	page, frag, err = b.Post(action, form)
	if err != nil {
		return nil, err
	}
	if frag == nil {
		return nil, fmt.Errorf("login did not finish: %.300s", page.Body)
	}
	return frag, nil
}

// OIDCCancel opens the OP's login page for authURL and presses Cancel
// there, and answers the Campus callback page's fragment.
func (b *Browser) OIDCCancel(authURL string) (url.Values, error) {
	page, frag, err := b.Get(authURL)
	if err != nil || frag != nil {
		return frag, err
	}
	action, form, err := page.Form()
	if err != nil {
		return nil, err
	}
	cancel, err := url.Parse(action)
	if err != nil {
		return nil, err
	}
	cancel.Path = OPCancelPath
	page, frag, err = b.Post(cancel.String(), form)
	if err != nil {
		return nil, err
	}
	if frag == nil {
		return nil, fmt.Errorf("cancel did not come back: %.300s", page.Body)
	}
	return frag, nil
}

// SAMLLogin walks the IdP's login page for authURL as username and answers
// the auto-submitting form the IdP ends with (its action, the ACS, and the
// fields SAMLResponse and RelayState), without submitting it.
func (b *Browser) SAMLLogin(authURL, username, password string) (string, url.Values, error) {
	page, frag, err := b.Get(authURL)
	if err != nil {
		return "", nil, err
	}
	if frag != nil {
		return "", nil, fmt.Errorf("unexpected callback %v", frag)
	}
	if !strings.Contains(page.Body, "SAMLResponse") {
		action, form, err := page.Form()
		if err != nil {
			return "", nil, err
		}
		form.Set("user", username)
		form.Set("password", password)
		if page, frag, err = b.Post(action, form); err != nil {
			return "", nil, err
		}
		if frag != nil {
			return "", nil, fmt.Errorf("unexpected callback %v", frag)
		}
	}
	return page.Form()
}
