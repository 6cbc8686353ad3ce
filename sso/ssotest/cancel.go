package ssotest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
)

// OPCancelPath is where the OP's login page posts "Cancel".
const OPCancelPath = "/login/cancel"

// withCancel gives the example OP's login page the Cancel button a
// university's has: it ends the authorization request and sends the
// browser back to the relying party with error=access_denied and the
// request's state (RFC 6749 §4.1.2.1), as a person who changed their mind
// at the provider's page would be.
func withCancel(next http.Handler, st *opStorage) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == OPCancelPath && r.Method == http.MethodPost:
			cancelRequest(w, r, st)
		case r.URL.Path == "/login/username" && r.Method == http.MethodGet:
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			body := rec.Body.Bytes()
			if rec.Code == http.StatusOK {
				body = bytes.Replace(body, []byte("</form>"), []byte(`<button type="submit" formaction="`+OPCancelPath+
					`" formnovalidate>Cancel</button></form>`), 1)
			}
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Del("Content-Length")
			w.WriteHeader(rec.Code)
			_, _ = w.Write(body)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func cancelRequest(w http.ResponseWriter, r *http.Request, st *opStorage) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	id := r.PostForm.Get("id")
	req, err := st.AuthRequestByID(r.Context(), id)
	if err != nil {
		http.Error(w, "unknown authorization request", http.StatusBadRequest)
		return
	}
	_ = st.DeleteAuthRequest(r.Context(), id)
	to, err := url.Parse(req.GetRedirectURI())
	if err != nil {
		http.Error(w, "bad redirect URI", http.StatusBadRequest)
		return
	}
	q := to.Query()
	q.Set("error", "access_denied")
	q.Set("error_description", "The user cancelled the sign-in.")
	if s := req.GetState(); strings.TrimSpace(s) != "" {
		q.Set("state", s)
	}
	to.RawQuery = q.Encode()
	http.Redirect(w, r, to.String(), http.StatusFound)
}
