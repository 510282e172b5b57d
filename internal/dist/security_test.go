package dist

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loadlens/loadlens/internal/app"
	"github.com/loadlens/loadlens/internal/metrics"
)

func TestAgentsRefuseWhoeverLacksTheTokenOrCertificate(t *testing.T) {
	dir := t.TempDir()
	ca, other := newCA(t, dir, "agents"), newCA(t, dir, "other")
	agentCert, agentKey := ca.issue(t, dir, "agent")
	coordCert, coordKey := ca.issue(t, dir, "coordinator")
	strangerCert, strangerKey := other.issue(t, dir, "stranger")
	serverTLS := func(clientCA string) func(*AgentConfig) {
		return func(c *AgentConfig) {
			var err error
			if c.TLS, err = ServerTLS(agentCert, agentKey, clientCA); err != nil {
				t.Fatal(err)
			}
		}
	}
	clientTLS := func(caFile, cert, key string) *tls.Config {
		c, err := ClientTLS(caFile, cert, key)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	srv, count := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf("name: sec\nbase_url: %s\nscenarios:\n  s:\n    iterations: 3\n    flow:\n      - get: /s\n", srv.URL), nil)

	tests := []struct {
		name      string
		agent     func(*AgentConfig)
		token     string
		tls       *tls.Config
		wantErr   string // what the coordinator says
		wantAgent string // what the agent says; "" when it never saw the attempt
	}{
		{name: "right token", token: token},
		{name: "wrong token", token: "s3cret-tokem", wantErr: "the agent refused: wrong token", wantAgent: "wrong token"},
		{name: "no token", token: "", wantErr: "the agent refused: a token is required", wantAgent: "no token"},
		{name: "TLS with the right CA", agent: serverTLS(""), token: token, tls: clientTLS(ca.file, "", "")},
		{name: "TLS, agent's certificate not signed by the CA the coordinator trusts", agent: serverTLS(""), token: token,
			tls: clientTLS(other.file, "", ""), wantErr: "certificate signed by unknown authority"},
		{name: "plain TCP to a TLS agent", agent: serverTLS(""), token: token, wantErr: "agent 1"},
		{name: "mutual TLS", agent: serverTLS(ca.file), token: token, tls: clientTLS(ca.file, coordCert, coordKey)},
		{name: "mutual TLS without a client certificate", agent: serverTLS(ca.file), token: token, tls: clientTLS(ca.file, "", ""), wantErr: "agent 1"},
		{name: "mutual TLS with a certificate from another CA", agent: serverTLS(ca.file), token: token,
			tls: clientTLS(ca.file, strangerCert, strangerKey), wantErr: "agent 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			agents := startAgents(t, 1, token, tt.agent)
			before := count("/s")
			_, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(agents), Token: tt.token, TLS: tt.tls})
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Coordinate: %v\n%s", err, out)
				}
				if count("/s")-before != 3 {
					t.Fatalf("the server got %d requests, want 3", count("/s")-before)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one saying %q", err, tt.wantErr)
			}
			if count("/s") != before {
				t.Fatalf("a refused coordinator's test ran: %d requests", count("/s")-before)
			}
			if tt.wantAgent != "" && !strings.Contains(agents[0].out.String(), tt.wantAgent) {
				t.Errorf("the agent's output lacks %q:\n%s", tt.wantAgent, agents[0].out.String())
			}
		})
	}
}

func TestAgentPrintsWhatItAccepts(t *testing.T) {
	dir := t.TempDir()
	ca := newCA(t, dir, "agents")
	cert, key := ca.issue(t, dir, "agent")
	for _, tt := range []struct {
		clientCA string
		tls      bool
		want     string
	}{
		{want: "accepts only a coordinator presenting the token, over plain TCP (no TLS)"},
		{tls: true, want: "accepts only a coordinator presenting the token, over TLS\n"},
		{tls: true, clientCA: ca.file, want: "over mutual TLS"},
	} {
		agents := startAgents(t, 1, token, func(c *AgentConfig) {
			if tt.tls {
				c.TLS, _ = ServerTLS(cert, key, tt.clientCA)
			}
		})
		eventually(t, 10*time.Second, "the agent's first line", func() bool { return strings.Contains(agents[0].out.String(), "listening on") })
		if got := agents[0].out.String(); !strings.Contains(got, tt.want) {
			t.Errorf("agent says %q, want %q", got, tt.want)
		}
	}
}

func TestTokenMatches(t *testing.T) {
	for _, tt := range []struct {
		presented, want string
		ok              bool
	}{
		{"abc", "abc", true}, {"abd", "abc", false}, {"ab", "abc", false}, {"abcd", "abc", false}, {"", "abc", false}, {"", "", false},
	} {
		if got := tokenMatches(tt.presented, tt.want); got != tt.ok {
			t.Errorf("tokenMatches(%q, %q) = %v, want %v", tt.presented, tt.want, got, tt.ok)
		}
	}
}

func TestAgentServesOneCoordinatorAtATime(t *testing.T) {
	agents := startAgents(t, 1, token, nil)
	first, err := dialAgent(context.Background(), &Config{Token: token, Run: app.RunConfig{Version: "test"}}, "agent 1", agents[0].addr)
	if err != nil {
		t.Fatal(err)
	}
	defer first.nc.Close()
	if _, err := dialAgent(context.Background(), &Config{Token: token, Run: app.RunConfig{Version: "test"}}, "agent 1", agents[0].addr); err == nil || !strings.Contains(err.Error(), "busy") {
		t.Fatalf("a second coordinator: %v, want it refused as busy", err)
	}
	first.nc.Close()
	eventually(t, 10*time.Second, "the agent free again", func() bool {
		r, err := dialAgent(context.Background(), &Config{Token: token, Run: app.RunConfig{Version: "test"}}, "agent 1", agents[0].addr)
		if err == nil {
			r.nc.Close()
		}
		return err == nil
	})
}

func TestReadTokenRefusesAShortToken(t *testing.T) {
	for _, tc := range []struct {
		name, file, want string // want: a part of the error; "" for none
	}{
		{name: "five bytes", file: "right\n", want: "5 bytes; at least 16"},
		{name: "empty", file: "", want: "0 bytes"},
		{name: "fifteen", file: "0123456789abcde", want: "head -c 32 /dev/urandom | base64"},
		{name: "sixteen, first line", file: "0123456789abcdef\nrest", want: ""},
		{name: "longer than a hello carries", file: strings.Repeat("x", MaxToken+1), want: "4097 bytes; a token is at most 4096"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "token")
			if err := os.WriteFile(f, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			tok, err := ReadToken(f)
			switch {
			case tc.want == "" && (err != nil || tok != "0123456789abcdef"):
				t.Fatalf("ReadToken = %q, %v; want the first line", tok, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("ReadToken error %v; want one saying %q", err, tc.want)
			}
		})
	}
}

// TestAgentsOfAnotherBuildAreRefused connects a coordinator to an agent of
// another build: the run fails before any load, naming both builds, whether
// the agent compares builds (it refuses) or is one that does not (the
// coordinator does).
func TestAgentsOfAnotherBuildAreRefused(t *testing.T) {
	srv, count := countingServer(t, nil)
	path := writeTest(t, fmt.Sprintf("name: builds\nbase_url: %s\nscenarios:\n  s:\n    iterations: 2\n    flow:\n      - get: /b\n", srv.URL), nil)
	rev := func(r string, mod bool) Build { return Build{Version: "0.1.0", Revision: r, Modified: mod} }
	for _, tc := range []struct {
		name               string
		agent, coordinator Build
		wantErr            string // "" when they must work together
	}{
		{name: "same build", agent: rev("1111111111111111", false), coordinator: rev("1111111111111111", false)},
		{name: "a build without a commit is judged by its version", agent: Build{Version: "0.1.0"}, coordinator: rev("1111111111111111", false)},
		{name: "another version", agent: Build{Version: "0.0.9"}, coordinator: Build{Version: "0.1.0"},
			wantErr: "the agent refused: the agent is loadlens 0.0.9 and the coordinator loadlens 0.1.0: run the same build on both sides"},
		{name: "another commit", agent: rev("2222222222222222", false), coordinator: rev("1111111111111111", false),
			wantErr: "the agent is loadlens 0.1.0 (commit 222222222222) and the coordinator loadlens 0.1.0 (commit 111111111111)"},
		{name: "the same commit, modified", agent: rev("1111111111111111", true), coordinator: rev("1111111111111111", false),
			wantErr: "(commit 111111111111, modified) and the coordinator loadlens 0.1.0 (commit 111111111111)"},
		{name: "another module version, no commits", agent: Build{Version: "0.1.0", Module: "v0.1.0"}, coordinator: Build{Version: "0.1.0", Module: "v0.1.1-rc1"},
			wantErr: "the agent is loadlens 0.1.0 and the coordinator loadlens 0.1.0 (module v0.1.1-rc1)"},
		// Builds of one version without commits (-buildvcs=false, an image built without .git) differ by their snapshot format:
		// a coordinator that reads formats up to 7 failed at the first second a newer agent sent in format 8.
		{name: "one version, no commits, one snapshot format", agent: Build{Version: "0.1.0", Snapshot: 8}, coordinator: Build{Version: "0.1.0", Snapshot: 8}},
		{name: "one version, no commits, a newer agent's snapshot format", agent: Build{Version: "0.1.0", Snapshot: 9}, coordinator: Build{Version: "0.1.0", Snapshot: 8},
			wantErr: "the agent refused: the agent is loadlens 0.1.0 (snapshot format 9) and the coordinator loadlens 0.1.0 (snapshot format 8): run the same build on both sides " +
				"(the same release, image or commit; `loadlens version` names each)"},
		{name: "a coordinator from before formats were compared", agent: Build{Version: "0.1.0", Snapshot: 8}, coordinator: Build{Version: "0.1.0"},
			wantErr: "the agent is loadlens 0.1.0 (snapshot format 8) and the coordinator loadlens 0.1.0 (a build from before snapshot formats were compared)"},
		{name: "an agent one release older (N-1)", agent: Build{Version: "0.0.9", Snapshot: 7}, coordinator: Build{Version: "0.1.0", Snapshot: 8},
			wantErr: "the agent is loadlens 0.0.9 (snapshot format 7) and the coordinator loadlens 0.1.0 (snapshot format 8): run the same build on both sides"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			agents := startAgents(t, 1, token, func(c *AgentConfig) { c.build = tc.agent })
			before := count("/b")
			_, out, err := coordinateTest(t, Config{TestFile: path, Agents: addrsOf(agents), Token: token, build: tc.coordinator})
			if tc.wantErr == "" {
				if err != nil || count("/b")-before != 2 {
					t.Fatalf("Coordinate: %v, %d requests\n%s", err, count("/b")-before, out)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
			}
			if count("/b") != before {
				t.Fatalf("an agent of another build ran the test: %d requests", count("/b")-before)
			}
			eventually(t, 10*time.Second, "the agent says why it refused", func() bool {
				return strings.Contains(agents[0].out.String(), "refused") && strings.Contains(agents[0].out.String(), "run the same build")
			})
		})
	}
	t.Run("an agent of one version that does not send its snapshot format", func(t *testing.T) {
		// A build from before formats were compared, without a commit: its version alone matches.
		cfg := &Config{Token: token, build: Build{Version: "0.1.0", Snapshot: 8}}
		old := &AgentConfig{Token: token, Out: io.Discard, build: Build{Version: "0.1.0"}}
		addr := helloListener(t, func(c net.Conn) {
			_ = newConn(c).send(kindWelcome, welcomeOf(old))
			_, _ = io.Copy(io.Discard, c)
		})
		_, err := dialAgent(context.Background(), cfg, "agent 1", addr)
		if want := "agent 1 (" + addr + "): the agent is loadlens 0.1.0 (a build from before snapshot formats were compared) and the coordinator loadlens 0.1.0 (snapshot format 8)"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want %q", err, want)
		}
	})
	t.Run("an agent that does not compare builds", func(t *testing.T) {
		// It welcomes anyone with the token (as builds before this check did): the coordinator refuses it.
		cfg := &Config{Token: token, build: Build{Version: "0.1.0"}}
		old := &AgentConfig{Token: token, Out: io.Discard, build: Build{Version: "0.0.9"}}
		addr := helloListener(t, func(c net.Conn) {
			_ = newConn(c).send(kindWelcome, welcomeOf(old))
			_, _ = io.Copy(io.Discard, c)
		})
		_, err := dialAgent(context.Background(), cfg, "agent 1", addr)
		if want := "agent 1 (" + addr + "): the agent is loadlens 0.0.9 and the coordinator loadlens 0.1.0"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want %q", err, want)
		}
	})
}

// A listener that is not an agent (a wrong address, a stranger) cannot make
// the coordinator allocate a large frame: until a welcome, frames are small.
func TestCoordinatorReadsLittleBeforeAWelcome(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer []byte // what the stranger writes after reading the hello
		tooBig bool
	}{
		{name: "a 200 MiB claim", answer: rawFrame(kindWelcome, 200<<20, nil), tooBig: true},
		{name: "one byte over", answer: rawFrame(kindWelcome, maxWelcome+1, nil), tooBig: true},
		{name: "a small garbage welcome", answer: rawFrame(kindWelcome, 3, []byte("{x}"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := helloListener(t, func(c net.Conn) { _, _ = c.Write(tc.answer) })
			cfg := &Config{Token: token, build: Build{Version: "0.1.0"}}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, err := dialAgent(ctx, cfg, "agent 1", addr)
			var big *oversizeError
			if got := errors.As(err, &big); got != tc.tooBig || err == nil {
				t.Fatalf("error %v: oversize %v, want %v", err, got, tc.tooBig)
			}
			if tc.tooBig && big.limit != maxWelcome {
				t.Fatalf("refused at %d bytes, want the welcome's %d", big.limit, maxWelcome)
			}
		})
	}
}

// helloListener listens on loopback for one connection, reads its hello and
// hands it to answer; it returns the address to dial.
func helloListener(t *testing.T, answer func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		if _, err := readHello(c); err == nil {
			answer(c)
		}
	}()
	return ln.Addr().String()
}

// TestThisBuildSendsItsSnapshotFormat: the build an agent and a
// coordinator send names the snapshot format its seconds are written in.
func TestThisBuildSendsItsSnapshotFormat(t *testing.T) {
	if b := ThisBuild("0.1.0"); b.Snapshot != metrics.SnapshotFormat || b.Snapshot == 0 {
		t.Errorf("ThisBuild's snapshot format %d, want %d", b.Snapshot, metrics.SnapshotFormat)
	}
}

// TestTLSAndTokenFilesAreBounded: a certificate, key, CA or token file
// named by mistake as /dev/zero is refused at 1 MiB, naming the flag,
// where os.ReadFile read it without end.
func TestTLSAndTokenFilesAreBounded(t *testing.T) {
	for _, tc := range []struct {
		name string
		load func() error
		want string
	}{
		{"--tls-ca", func() error { _, err := ClientTLS("/dev/zero", "", ""); return err }, "--tls-ca: /dev/zero is more than 104857"},
		{"--tls-cert", func() error { _, err := ServerTLS("/dev/zero", "/dev/zero", ""); return err }, "--tls-cert: /dev/zero is more than 104857"},
		{"--token-file", func() error { _, err := ReadToken("/dev/zero"); return err }, "token file: /dev/zero is more than 104857"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { done <- tc.load() }()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want one with %q", err, tc.want)
				}
			case <-time.After(10 * time.Second): // a bound, not a synchronisation
				t.Fatal("reading did not return")
			}
		})
	}
}
