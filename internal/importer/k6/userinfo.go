package k6

import (
	"encoding/base64"
	"net/url"
	"strings"

	"github.com/loadlens/loadlens/internal/importer"
)

// basicFromUserinfo moves an HTTP step's http://user:pass@host credentials
// into the Authorization: Basic header k6 (through Go's net/http) sends
// for them, so the URL is the host's alone: it joins the base URL like any
// other, and a run against a local server (-e BASE_URL=...) still
// authenticates. As in net/http, a header the request sets itself wins.
// Credentials with a template part stay in the URL.
func basicFromUserinfo(st *importer.Step) {
	if st.Method == "" || !hasUserinfo(st.Path) {
		return
	}
	scheme, rest, _ := strings.Cut(st.Path, "://")
	authority := rest
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		authority = rest[:i]
	}
	at := strings.LastIndexByte(authority, '@')
	if strings.Contains(authority[:at], "{{") {
		return
	}
	u, err := url.Parse(scheme + "://" + authority[:at+1] + "h/")
	if err != nil || u.User == nil {
		return
	}
	st.Path = withoutUserinfo(st.Path)
	if st.Name == st.Path { // named so only to keep the credentials out: the path is its name now
		st.Name = ""
	}
	for _, h := range st.Headers {
		if strings.EqualFold(h.Name, "Authorization") {
			return
		}
	}
	pass, _ := u.User.Password()
	cred := base64.StdEncoding.EncodeToString([]byte(u.User.Username() + ":" + pass))
	st.Headers = append(st.Headers, importer.Header{Name: "Authorization", Value: "Basic " + cred})
}
