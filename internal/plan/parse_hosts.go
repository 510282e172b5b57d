package plan

import (
	"fmt"
	"math"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// MaxBodyLimit bounds max_body: every VU may hold a body this large.
const MaxBodyLimit = 1 << 30

// redirects parses a count of redirects to follow.
func (p *parser) redirects(n yamldoc.Node) (int, bool) {
	return p.Count(n, 0)
}

// size parses a byte size: 1048576, 512KiB, 1MiB, 1.5MB.
func (p *parser) size(n yamldoc.Node) (int64, bool) {
	const what = "a size like 1048576, 512KiB or 1MiB"
	var v float64
	switch n.V.(type) {
	case *ast.IntegerNode, *ast.FloatNode:
		f, ok := p.Float(n, what)
		if !ok {
			return 0, false
		}
		v = f
	default:
		s, ok := p.Fixed(n, "a size", what)
		if !ok {
			return 0, false
		}
		v, ok = yamldoc.ParseSize(s)
		if !ok {
			p.Errs.Add(n.Pos, n.Path, "bad size %q%s: write bytes, or a number with B, KB, MB, GB, KiB, MiB or GiB (1MiB = 1048576 bytes)", s, p.From(n))
			return 0, false
		}
	}
	switch {
	case v < 0:
		p.Errs.Add(n.Pos, n.Path, "must not be negative, got %s%s", p.ValueText(n), p.From(n))
		return 0, false
	case v > MaxBodyLimit:
		p.Errs.Add(n.Pos, n.Path, "%s%s is more than 1GiB: every VU may hold a body this large", p.ValueText(n), p.From(n))
		return 0, false
	}
	return int64(math.Floor(v)), true
}

// allowHosts parses allow_hosts: a list of host or host:port.
func (p *parser) allowHosts(n yamldoc.Node) []string {
	items, ok := p.List(n, "a list of hosts like api.example.com or 127.0.0.1:8081")
	if !ok {
		return nil
	}
	var out []string
	for _, item := range items {
		s, ok := p.NonEmpty(item, "a host like api.example.com or 127.0.0.1:8081")
		if !ok {
			continue
		}
		h, problem := normalHost(s)
		if problem != "" {
			p.Errs.Add(item.Pos, item.Path, "bad host %q: %s", s, problem)
			continue
		}
		out = append(out, h)
	}
	return out
}

// normalHost checks a host or host:port as written in allow_hosts and
// returns it in lower case, or says what is wrong with it.
func normalHost(s string) (string, string) {
	const want = "write a host like api.example.com, or host:port like 127.0.0.1:8081"
	if strings.Contains(s, "://") {
		return "", "it is a URL; " + want
	}
	if strings.ContainsAny(s, "/?#@ \t") || strings.Contains(s, "{{") {
		return "", want
	}
	host, port := s, ""
	if h, p, err := net.SplitHostPort(s); err == nil {
		host, port = h, p
		if port == "" {
			return "", "the port must be a number from 1 to 65535"
		}
	} else if strings.Count(s, ":") == 1 {
		return "", fmt.Sprintf("bad port (%v); %s", strings.TrimPrefix(err.Error(), "address "+s+": "), want)
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "" {
		return "", "no host; " + want
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return "", "the port must be a number from 1 to 65535"
		}
	}
	if strings.Contains(host, ":") { // IPv6
		if net.ParseIP(host) == nil {
			return "", want
		}
		host = "[" + host + "]"
	}
	host = strings.ToLower(host)
	if port != "" {
		return host + ":" + port, ""
	}
	return host, ""
}

// nameHost records the host of a URL the test names, so that redirects may
// lead to it. Only a host that is the same for every request counts.
func (p *parser) nameHost(rawURL string) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return
	}
	if h, problem := normalHost(u.Host); problem == "" {
		p.nameOrigin(u.Scheme, h)
	}
}

// nameOrigin records a host (normalHost's) the test's requests go to, by
// scheme, in the hosts and the origins.
func (p *parser) nameOrigin(scheme, host string) {
	if !slices.Contains(p.hosts, host) {
		p.hosts = append(p.hosts, host)
	}
	if o := strings.ToLower(scheme) + "://" + host; !slices.Contains(p.origins, o) {
		p.origins = append(p.origins, o)
	}
}

// nameTemplatedHost records the host of an absolute step URL written with
// templates, when its host part is constant (plain text or env lookups).
func (p *parser) nameTemplatedHost(src string, sc *tmpl.Scope) {
	scheme, abs := urlScheme(src)
	if !abs {
		return
	}
	rest := src[len(scheme)+3:]
	end := len(rest)
	for _, sep := range []string{"/", "?", "#"} {
		if i := strings.Index(rest, sep); i >= 0 && i < end {
			end = i
		}
	}
	authority := rest[:end]
	if strings.Contains(authority, "{{") && !strings.Contains(authority, "}}") {
		return // the template goes on into the path
	}
	t, err := tmpl.Compile(authority, &tmpl.Scope{Env: sc.Env})
	if err != nil {
		return // a variable in the host: not the same for every request
	}
	if c, ok := t.Const(); ok {
		p.nameHost(scheme + "://" + c)
	}
}

// HostAllowed reports whether a redirect may lead to u's host: one the
// test names (its base_url and absolute step URLs) or lists in
// allow_hosts. An entry without a port allows every port of its host; one
// with a port allows that port only (a URL without a port has its scheme's);
// "*.example.com" allows the subdomains of example.com.
func (p *Plan) HostAllowed(u *url.URL) bool {
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	for _, a := range p.AllowHosts {
		h, ap := a, ""
		if hh, pp, err := net.SplitHostPort(a); err == nil {
			h, ap = hh, pp
		}
		h = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
		match := h == host
		if parent, ok := strings.CutPrefix(h, "*."); ok {
			match = strings.HasSuffix(host, "."+parent) // subdomains, not the parent itself
		}
		if match && (ap == "" || ap == port) {
			return true
		}
	}
	return false
}
