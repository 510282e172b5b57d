package plan

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/loadlens/loadlens/internal/sample"
	"github.com/loadlens/loadlens/internal/tmpl"
	"github.com/loadlens/loadlens/internal/yamldoc"
)

// grpcKeys are the keys of a grpc: step.
var grpcKeys = []string{"grpc", "method", "name", "proto", "import_paths", "protoset", "metadata", "message", "messages",
	"timeout", "max_messages", "max_message_size", "expect_status", "check", "extract"}

// grpcStep parses a grpc: step: one call of a gRPC method (unary or
// streaming) on a connection the VU keeps.
func (p *parser) grpcStep(o *yamldoc.Object, sc *scenarioCtx) (Step, bool) {
	errsBefore := p.Errs.Len()
	s, targetNode, ok := p.sessionStep(o, sc, "a grpc:", "grpc", grpcKeys)
	if !ok {
		return Step{}, false
	}
	g := &GRPC{}
	s.GRPC = g
	p.grpcTarget(targetNode, g, sc)
	methodNode, hasMethod := o.Get("method")
	if !hasMethod {
		p.Errs.Missing(o.KeyPos("grpc"), o.Path, o.Path, "missing key %q: the method to call, like package.Service/Method", "method")
	} else if g.Method, _ = p.NonEmpty(methodNode, "a method like package.Service/Method"); g.Method != "" {
		g.Method = strings.TrimPrefix(g.Method, "/")
		if svc, m, ok := strings.Cut(g.Method, "/"); !ok || svc == "" || m == "" || strings.Contains(m, "/") {
			p.Errs.Add(methodNode.Pos, methodNode.Path, "bad method %q: expected package.Service/Method", g.Method)
		}
		g.MethodAt = p.at(methodNode)
	}
	name := "GRPC " + g.Method
	if n, has := o.Get("name"); has {
		name, _ = p.NonEmpty(n, "an endpoint name")
	}
	if g.Method != "" && name != "" {
		s.Endpoint = p.layout.endpoint(sc.s.ID, sc.group, name, "GRPC")
		p.layout.protocol(s.Endpoint, s.Protocol, false)
		p.layout.scheme(s.Endpoint, !g.TLS)
	}
	p.grpcDescriptors(o, g)
	if n, has := o.Get("metadata"); has {
		s.Headers = p.headers(nil, p.headerFields(n), sc.scope)
	}
	p.grpcMessages(o, g, sc)
	p.grpcLimits(o, s)
	if n, has := o.Get("expect_status"); has {
		g.ExpectStatus, _, _ = p.grpcCodes(n)
	}
	if n, has := o.Get("check"); has {
		s.Checks = p.checksOf(n, s.Endpoint, grpcChecks, nil)
	}
	if n, has := o.Get("extract"); has {
		s.Extract = p.extracts(n, s.Endpoint, sc)
	}
	return Step{Kind: SessionStep, Session: s}, p.Errs.Len() == errsBefore
}

// at is where n is written, as an Error whose Msg is left to fill.
func (p *parser) at(n yamldoc.Node) yamldoc.Error {
	return yamldoc.Error{File: p.Errs.File(), Line: n.Pos.Line, Column: n.Pos.Col, Field: n.Path}
}

// grpcTarget parses the step's target: host:port, grpc://host:port
// (plaintext) or grpcs://host:port (TLS). It may be a template known
// before the run ({{ env.TARGET }}), as k6's client.connect(__ENV.TARGET).
func (p *parser) grpcTarget(n yamldoc.Node, g *GRPC, sc *scenarioCtx) {
	written, ok := p.NonEmpty(n, "a target like grpc://127.0.0.1:50051 or grpcs://api.example.com:443")
	if !ok {
		return
	}
	src, ok := p.constTarget(n, written, sc)
	if !ok {
		return
	}
	hostPort := src
	lower := strings.ToLower(src)
	switch {
	case strings.HasPrefix(lower, "grpcs://"):
		g.TLS, hostPort = true, src[len("grpcs://"):]
	case strings.HasPrefix(lower, "grpc://"):
		hostPort = src[len("grpc://"):]
	case strings.Contains(src, "://"):
		p.Errs.Add(n.Pos, n.Path, "bad target %q: the scheme is grpc:// (plaintext) or grpcs:// (TLS)", src)
		return
	}
	host, port, err := net.SplitHostPort(strings.TrimSuffix(hostPort, "/"))
	if _, perr := strconv.ParseUint(port, 10, 16); err != nil || host == "" || perr != nil {
		p.Errs.Add(n.Pos, n.Path, "bad target %q: expected host:port, like grpc://127.0.0.1:50051", src)
		return
	}
	g.Target = net.JoinHostPort(host, port)
	scheme := "grpc"
	if g.TLS {
		scheme = "grpcs"
	}
	if h, problem := normalHost(g.Target); problem == "" {
		p.nameOrigin(scheme, h)
	}
}

// constTarget is the value of a grpc: target written as src at n: its
// text, or a template's value when it is known before the run, which asks
// the server's reflection and connects before the first call.
func (p *parser) constTarget(n yamldoc.Node, src string, sc *scenarioCtx) (string, bool) {
	t, ok := p.Compile(n, src, sc.scope)
	if !ok {
		return "", false
	}
	c, isConst := t.Const()
	if !isConst {
		p.Errs.Add(n.Pos, n.Path, "a grpc: target is connected to before the run: it may use {{ env... }}, but not %q, whose value changes per VU or iteration", src)
		return "", false
	}
	return c, true
}

// grpcDescriptors parses proto: (one file or a list, relative to the
// import paths) and import_paths:, or protoset:; without either the
// server's reflection is asked.
func (p *parser) grpcDescriptors(o *yamldoc.Object, g *GRPC) {
	n, has := o.Get("proto")
	if ps, hasSet := o.Get("protoset"); hasSet {
		if has {
			p.Errs.Add(ps.Key, ps.Path, "give proto: or protoset:, not both")
			return
		}
		if f, ok := p.NonEmpty(ps, "the path of a protoset (protoc --descriptor_set_out --include_imports)"); ok {
			g.Protoset, g.ProtoAt = p.absolute(f), p.at(ps)
			if err := regularFile(g.Protoset); err != nil && !p.unplaced {
				p.Errs.Add(ps.Pos, ps.Path, "cannot read protoset %s: %v", g.Protoset, err)
			}
		}
	}
	if !has {
		if ip, has := o.Get("import_paths"); has {
			p.Errs.Add(ip.Key, ip.Path, "import_paths: goes with proto: (without proto:, the server's reflection describes the method)")
		}
		return
	}
	g.ProtoAt = p.at(n)
	items := []yamldoc.Node{n}
	if isSequence(n) {
		items, _ = p.List(n, "a .proto file or a list of them")
	}
	g.ImportDir = []string{p.dir}
	if ip, has := o.Get("import_paths"); has {
		g.ImportDir = nil
		for _, d := range p.words(ip) {
			g.ImportDir = append(g.ImportDir, p.absolute(d))
		}
	}
	for _, it := range items {
		if f, ok := p.NonEmpty(it, "the path of a .proto file"); ok {
			g.Protos = append(g.Protos, f)
			p.protoExists(it, f, g.ImportDir)
		}
	}
}

// protoExists reports a .proto file found in none of dirs (or, absolute,
// not at all) at its item, as the run would fail to read it only once it
// had started.
func (p *parser) protoExists(n yamldoc.Node, f string, dirs []string) {
	if p.unplaced {
		return
	}
	if filepath.IsAbs(f) {
		dirs = []string{""}
	}
	var err error
	for _, d := range dirs {
		if err = regularFile(filepath.Join(d, f)); err == nil {
			return
		}
	}
	switch {
	case filepath.IsAbs(f):
		p.Errs.Add(n.Pos, n.Path, "cannot read .proto file %s: %v", f, err)
	case len(dirs) == 1 && dirs[0] == p.dir:
		p.Errs.Add(n.Pos, n.Path, "cannot read .proto file %s: %v (without import_paths:, proto: is relative to the test file)", filepath.Join(dirs[0], f), err)
	case len(dirs) == 1:
		p.Errs.Add(n.Pos, n.Path, "cannot read .proto file %s: %v (proto: is relative to import_paths:)", filepath.Join(dirs[0], f), err)
	default:
		p.Errs.Add(n.Pos, n.Path, "cannot find .proto file %s in the import paths %s", f, strings.Join(dirs, ", "))
	}
}

// regularFile returns why path is not a regular file that can be opened.
func regularFile(path string) error {
	info, err := os.Stat(path)
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case err != nil:
		return err
	case !info.Mode().IsRegular():
		return errNotRegular
	}
	return nil
}

// absolute resolves a path written in the test relative to its file.
func (p *parser) absolute(path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(p.dir, path)
}

// grpcMessages parses message: (one request message) or messages: (a list,
// for client-streaming and bidirectional methods), each in YAML or JSON.
func (p *parser) grpcMessages(o *yamldoc.Object, g *GRPC, sc *scenarioCtx) {
	one, hasOne := o.Get("message")
	many, hasMany := o.Get("messages")
	switch {
	case hasOne && hasMany:
		p.Errs.Add(o.KeyPos("messages"), yamldoc.JoinPath(o.Path, "messages"), "give message: (one) or messages: (a list), not both")
	case hasOne:
		g.Messages = append(g.Messages, p.grpcMessage(one, sc))
	case hasMany:
		items, ok := p.List(many, "a list of messages like [{name: a}, {name: b}]")
		if !ok {
			return
		}
		for _, it := range items {
			g.Messages = append(g.Messages, p.grpcMessage(it, sc))
		}
	}
}

// grpcMessage compiles one message's YAML value into its JSON template.
func (p *parser) grpcMessage(n yamldoc.Node, sc *scenarioCtx) *tmpl.Template {
	t, _ := p.JSONTemplate(n, sc.scope) // its errors are recorded
	return t
}

// grpcLimits parses what bounds a call: its deadline, the messages
// received and their size.
func (p *parser) grpcLimits(o *yamldoc.Object, s *Session) {
	if n, ok := o.Get("timeout"); ok {
		if d, ok := p.PositiveDuration(n); ok {
			s.Timeout = d
		}
	}
	if n, ok := o.Get("max_messages"); ok {
		if v, ok := p.Count(n, 1); ok {
			s.MaxMessages = v
		}
	}
	if n, ok := o.Get("max_message_size"); ok {
		if v, ok := p.size(n); ok && v > 0 && v <= 1<<31-1 {
			s.MaxMessage = v
		} else if ok {
			p.Errs.Add(n.Pos, n.Path, "must be above 0 and below 2GiB")
		}
	}
}

// grpcChecks are a grpc: step's checks: status: names gRPC status codes
// (OK, NOT_FOUND or their numbers); json:, header: and body_* are as a
// request's, on each response message and on the response metadata.
var grpcChecks = checkDialect{status: (*parser).grpcStatusCheck, example: "{status: OK}"}

// isSequence reports whether n is a YAML list.
func isSequence(n yamldoc.Node) bool {
	_, ok := n.V.(*ast.SequenceNode)
	return ok
}

// grpcStatusCheck parses status: OK or a list of codes into a check whose
// Values are the codes' numbers, named by the codes' names.
func (p *parser) grpcStatusCheck(n yamldoc.Node) (Check, bool) {
	c := Check{From: FromStatus, Op: OpIn}
	codes, names, ok := p.grpcCodes(n)
	if !ok {
		return c, false
	}
	for _, code := range codes {
		c.Values = append(c.Values, strconv.Itoa(code))
	}
	c.Name = "status is " + names[0]
	if isSequence(n) {
		c.Name = fmt.Sprintf("status in [%s]", strings.Join(names, ", "))
	}
	return c, true
}

// grpcCodes parses a gRPC status (OK, not_found or 5) or a list of them
// into the codes' numbers and names; an unknown one is an error at its item.
func (p *parser) grpcCodes(n yamldoc.Node) (codes []int, names []string, ok bool) {
	items := []yamldoc.Node{n}
	if isSequence(n) {
		if items, ok = p.List(n, "a gRPC status like OK or a list like [OK, NOT_FOUND]"); !ok {
			return nil, nil, false
		}
		if len(items) == 0 {
			p.Errs.Add(n.Pos, n.Path, "needs at least one gRPC status, like [OK, NOT_FOUND]")
			return nil, nil, false
		}
	}
	for _, it := range items {
		s, ok := p.NonEmpty(it, "a gRPC status like OK or NOT_FOUND")
		if !ok {
			return nil, nil, false
		}
		code, known := sample.GRPCCode(s)
		if num, err := strconv.Atoi(s); err == nil && sample.GRPCCodeName(num) != "" {
			code, known = num, true
		}
		if !known {
			p.Errs.Add(it.Pos, it.Path, "unknown gRPC status %q (known: %s)", s, strings.Join(sample.GRPCCodeNames(), ", "))
			return nil, nil, false
		}
		codes = append(codes, code)
		names = append(names, sample.GRPCCodeName(code))
	}
	return codes, names, true
}
