package dist

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	first, err := dialAgent(context.Background(), &Config{Token: token}, "agent 1", agents[0].addr)
	if err != nil {
		t.Fatal(err)
	}
	defer first.nc.Close()
	if _, err := dialAgent(context.Background(), &Config{Token: token}, "agent 1", agents[0].addr); err == nil || !strings.Contains(err.Error(), "busy") {
		t.Fatalf("a second coordinator: %v, want it refused as busy", err)
	}
	first.nc.Close()
	eventually(t, 10*time.Second, "the agent free again", func() bool {
		r, err := dialAgent(context.Background(), &Config{Token: token}, "agent 1", agents[0].addr)
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
