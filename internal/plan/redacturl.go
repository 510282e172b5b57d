package plan

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
)

// RedactedInURL replaces a credential inside a URL: a URL's userinfo cannot
// hold Redacted's brackets, and a query value would show them escaped.
const RedactedInURL = "REDACTED"

// Redact returns text as it may be shown or stored: the credentials of
// every URL in it (a password, or a user alone, which is often a token)
// and the values of credential-like query parameters (?token=, &api_key=,
// ;sig=, ...) replaced by REDACTED, and a connection string's password=
// by [REDACTED]. It is the one redaction every output applies to URLs and
// to messages that may quote one; the request on the wire keeps the real
// values. Text with neither @ nor = is returned as is, without allocating.
func Redact(s string) string {
	if !strings.Contains(s, "=") && !strings.Contains(s, "@") {
		return s
	}
	s = redactUserinfo(s)
	if !strings.Contains(s, "=") {
		return s
	}
	s = secretQuery.ReplaceAllStringFunc(s, redactParam)
	return dsnPassword.ReplaceAllString(s, "${1}${2}="+Redacted)
}

// RedactOutput is Redact for a metrics output's URL (KIND=URL or the URL),
// which also hides InfluxDB 1.x's u and p: elsewhere p and u are pages and
// users, not credentials.
func RedactOutput(s string) string {
	return Redact(influxCredentials.ReplaceAllString(s, "${1}${2}="+RedactedInURL))
}

// influxCredentials are InfluxDB 1.x's u and p query parameters.
var influxCredentials = regexp.MustCompile(`([?&])(u|p)=[^&#\s{}"']+`)

// secretQuery matches a query (or matrix) parameter with a literal value:
// the separator, the name, and a value up to the next separator. A value
// from a template ({{ env.T }}) is not matched, so that a test's source
// stays a template that parses.
var secretQuery = regexp.MustCompile(`([?&;])([A-Za-z0-9_.\-]+)=([^&;#\s"'<>{}\x60]+)`)

// dsnPassword is a password in a key=value connection string, its pairs
// separated by blanks (one separated by ; or & is secretQuery's).
var dsnPassword = regexp.MustCompile(`(?i)(^|[\s,])(password|passwd|pwd)=('[^']*'|"[^"]*"|[^\s;&]*)`)

// redactParam redacts one secretQuery match when its name is a credential's.
func redactParam(m string) string {
	eq := strings.IndexByte(m, '=')
	if !SecretParam(m[1:eq]) || m[eq+1:] == RedactedInURL {
		return m
	}
	return m[:eq+1] + RedactedInURL
}

// SecretParam reports whether a query parameter's name says its value is a
// credential (case-insensitive, - read as _): key, sig, auth, pwd, pass,
// apikey; a name containing token, secret, passw, signature or credential
// (access_token, client_secret, password, X-Amz-Signature); or ending in
// _key (api_key, access_key, subscription-key).
func SecretParam(name string) bool {
	n := strings.ReplaceAll(strings.ToLower(name), "-", "_")
	switch n {
	case "key", "sig", "auth", "authorization", "pwd", "pass", "apikey":
		return true
	}
	for _, w := range []string{"token", "secret", "passw", "signature", "credential"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return strings.HasSuffix(n, "_key")
}

// redactUserinfo replaces the credentials of every scheme://user:pass@host
// in s. The authority ends at the first /, ?, # or blank, and the userinfo
// at its last @, as url.Parse reads it.
func redactUserinfo(s string) string {
	var b strings.Builder
	rest := s
	for {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		auth := rest[i+3:]
		end := strings.IndexFunc(auth, func(r rune) bool { return strings.ContainsRune("/?#\"'<>\x60", r) || r <= ' ' })
		if end < 0 {
			end = len(auth)
		}
		at := strings.LastIndexByte(auth[:end], '@')
		if at < 0 || strings.ContainsAny(auth[:at], "{}") { // none, or a template's
			b.WriteString(rest[:i+3])
			rest = auth
			continue
		}
		b.WriteString(rest[:i+3])
		if user, _, hasPass := strings.Cut(auth[:at], ":"); hasPass {
			b.WriteString(user + ":" + RedactedInURL)
		} else {
			b.WriteString(RedactedInURL)
		}
		rest = auth[at:]
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(rest)
	return b.String()
}

// cutUserinfo splits the credentials off an absolute URL written as text:
// the URL without them and the Authorization header they stand for
// (Basic, as curl and k6 send them). ok is false when the URL has none in
// literal text: no scheme, no @ in the authority, or a templated one.
func cutUserinfo(raw string) (clean, authorization string, ok bool) {
	scheme, abs := urlScheme(raw)
	if !abs {
		return raw, "", false
	}
	i := len(scheme)
	auth := raw[i+3:]
	end := strings.IndexAny(auth, "/?#")
	if end < 0 {
		end = len(auth)
	}
	at := strings.LastIndexByte(auth[:end], '@')
	if at < 0 || strings.Contains(auth[:end], "{{") {
		return raw, "", false
	}
	user, pass, _ := strings.Cut(auth[:at], ":")
	u, err1 := url.PathUnescape(user)
	p, err2 := url.PathUnescape(pass)
	if err1 != nil || err2 != nil {
		u, p = user, pass // not percent-encoded after all: send them as written
	}
	return raw[:i+3] + auth[at+1:], "Basic " + base64.StdEncoding.EncodeToString([]byte(u+":"+p)), true
}
