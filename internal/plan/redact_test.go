package plan

import (
	"strings"
	"testing"
)

func TestSourceRedactsLiteralCredentials(t *testing.T) {
	env := func(k string) (string, bool) { return "from-env-" + k, true }
	steps := "scenarios:\n  s:\n    vus: 1\n    duration: 1s\n    flow:\n      - get: /x\n"
	tests := []struct {
		name     string
		src      string
		want     string            // the stored source; "" means the source as written
		redacted map[string]string // headers of step 0 as the stored source parses: name → value
	}{
		{"flow mapping, plain",
			"base_url: http://h\nheaders: {Authorization: Bearer abc123, Accept: json}\n" + steps,
			"base_url: http://h\nheaders: {Authorization: \"[REDACTED]\", Accept: json}\n" + steps,
			map[string]string{"Authorization": Redacted, "Accept": "json"}},
		{"block mapping, quoted, with comments",
			"base_url: http://h\nheaders:\n  Authorization: \"Bearer \\\"abc\\\"\" # the token\n  x-api-key: 'k''ey'\n  Accept: json\n" + steps,
			"base_url: http://h\nheaders:\n  Authorization: \"[REDACTED]\" # the token\n  x-api-key: \"[REDACTED]\"\n  Accept: json\n" + steps,
			map[string]string{"Authorization": Redacted, "X-Api-Key": Redacted, "Accept": "json"}},
		{"a step's header over two lines",
			"base_url: http://h\n" + steps + "        headers:\n          Cookie: a=1;\n            b=2\n          X-Trace: t\n",
			"base_url: http://h\n" + steps + "        headers:\n          Cookie: \"[REDACTED]\"\n          X-Trace: t\n",
			map[string]string{"Cookie": Redacted, "X-Trace": "t"}},
		{"a block scalar",
			"base_url: http://h\nheaders:\n  X-Auth-Token: >-\n    abc\n    def\n\n  Accept: json\n" + steps,
			"base_url: http://h\nheaders:\n  X-Auth-Token: \"[REDACTED]\"\n\n  Accept: json\n" + steps,
			map[string]string{"X-Auth-Token": Redacted, "Accept": "json"}},
		{"through an anchor",
			"x-auth: &auth Bearer s3cr3t\nbase_url: http://h\nheaders:\n  Authorization: *auth\n" + steps,
			"x-auth: &auth \"[REDACTED]\"\nbase_url: http://h\nheaders:\n  Authorization: *auth\n" + steps,
			map[string]string{"Authorization": Redacted}},
		{"through a merge key",
			"x-h: &h {X-Client-Secret: s3cr3t, Accept: json}\nbase_url: http://h\n" + steps + "        headers:\n          <<: *h\n",
			"x-h: &h {X-Client-Secret: \"[REDACTED]\", Accept: json}\nbase_url: http://h\n" + steps + "        headers:\n          <<: *h\n",
			map[string]string{"X-Client-Secret": Redacted, "Accept": "json"}},
		{"a number",
			"base_url: http://h\nheaders: {Proxy-Authorization: 12345}\n" + steps,
			"base_url: http://h\nheaders: {Proxy-Authorization: \"[REDACTED]\"}\n" + steps,
			map[string]string{"Proxy-Authorization": Redacted}},
		{"templates are not secrets",
			"base_url: http://h\nheaders:\n  Authorization: \"Bearer {{ env.TOKEN }}\"\n  Cookie: \"session={{ env.SID }}\"\n  X-Token: \"{{ env.T }}\"\n" + steps,
			"", map[string]string{"Authorization": "Bearer from-env-TOKEN", "Cookie": "session=from-env-SID", "X-Token": "from-env-T"}},
		{"a literal beside a template is",
			"base_url: http://h\nheaders:\n  Authorization: \"Bearer abc.{{ env.TOKEN }}\"\n" + steps,
			"base_url: http://h\nheaders:\n  Authorization: \"[REDACTED]\"\n" + steps,
			map[string]string{"Authorization": Redacted}},
		{"other headers stay",
			"base_url: http://h\nheaders: {Keep-Alive: timeout=5, X-Trace: abc, Accept: ''}\n" + steps,
			"", map[string]string{"Keep-Alive": "timeout=5", "X-Trace": "abc", "Accept": ""}},
		{"with a BOM and non-ASCII text",
			"\xef\xbb\xbf# café\nbase_url: http://h\nheaders: {X-Note: café, X-Password: \"ünïcode\"}\n" + steps,
			"\xef\xbb\xbf# café\nbase_url: http://h\nheaders: {X-Note: café, X-Password: \"[REDACTED]\"}\n" + steps,
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte(tt.src), env)
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want == "" {
				want = tt.src
			}
			if got := string(p.Source); got != want {
				t.Fatalf("source:\n%s\nwant:\n%s", got, want)
			}
			again, err := Parse("t.yaml", p.Source, env)
			if err != nil {
				t.Fatalf("the stored source does not parse: %v", err)
			}
			if string(again.Source) != string(p.Source) {
				t.Error("parsing the stored source redacts it again")
			}
			if tt.redacted == nil {
				return
			}
			if got := headerMap(req(t, again, 0, 0)); !equalMaps(got, tt.redacted) {
				t.Errorf("the stored source's headers %q, want %q", got, tt.redacted)
			}
			if orig := headerMap(req(t, p, 0, 0)); orig["Authorization"] == Redacted {
				t.Error("the plan that runs lost the real credential")
			}
		})
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestSecretHeader(t *testing.T) {
	for name, want := range map[string]bool{
		"Authorization": true, "cookie": true, "Proxy-Authorization": true, "X-Api-Key": true, "X-Auth-Token": true,
		"X-Client-Secret": true, "X-Password": true, "Accept": false, "Keep-Alive": false, "Set-Cookie-Policy": false, "X-Trace": false,
	} {
		if got := SecretHeader(name); got != want {
			t.Errorf("SecretHeader(%q) = %v, want %v", name, got, want)
		}
	}
}

// FuzzRedact checks that a literal credential written in any YAML style is
// absent from the stored source, which still parses.
func FuzzRedact(f *testing.F) {
	for _, v := range []string{"Bearer abc123", "k'1", `a"b\c`, "x: y", "#not a comment", "a, b]", "ünï cödé"} {
		for style := range 5 {
			f.Add(v, uint8(style))
		}
	}
	f.Fuzz(func(t *testing.T, v string, style uint8) {
		var val string
		switch style % 5 {
		case 0:
			val = v // plain
		case 1:
			val = "'" + strings.ReplaceAll(v, "'", "''") + "'"
		case 2:
			val = quoteYAML(v)
		case 3:
			val = "|-\n    " + v
		case 4:
			val = "&a " + quoteYAML(v)
		}
		src := "base_url: http://h\nheaders:\n  Authorization: " + val + "\n  Accept: x\nscenarios:\n  s: {vus: 1, duration: 1s, flow: [get: /x]}\n"
		p, err := Parse("t.yaml", []byte(src), noEnv)
		if err != nil {
			return
		}
		got := headerMap(req(t, p, 0, 0))["Authorization"]
		again, err := Parse("t.yaml", p.Source, noEnv)
		if err != nil {
			t.Fatalf("the stored source does not parse: %v\n%s", err, p.Source)
		}
		stored := headerMap(req(t, again, 0, 0))
		if literalSecret(got) && (stored["Authorization"] != Redacted || stored["Accept"] != "x") {
			t.Fatalf("the stored source gives headers %q\n%s", stored, p.Source)
		}
		if literalSecret(got) && len(got) >= 6 && strings.Contains(string(p.Source), got) {
			t.Fatalf("the stored source holds the credential %q:\n%s", got, p.Source)
		}
	})
}
