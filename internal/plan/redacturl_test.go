package plan

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://user:s3cret@h:8080/x", "http://user:REDACTED@h:8080/x"},
		{"https://tok3n@h/x", "https://REDACTED@h/x"},
		{"http://u:p@ss@h/x", "http://u:REDACTED@h/x"}, // the userinfo ends at the last @, as url.Parse reads it
		{"dial http://a:b@h and http://c:d@k", "dial http://a:REDACTED@h and http://c:REDACTED@k"},
		{"/b?token=s3cret&x=1", "/b?token=REDACTED&x=1"},
		{"http://h/b?x=1&API_KEY=s3cret#f", "http://h/b?x=1&API_KEY=REDACTED#f"},
		{"/s3?X-Amz-Signature=s3cret&X-Amz-Credential=s3cret&X-Amz-Date=1", "/s3?X-Amz-Signature=REDACTED&X-Amz-Credential=REDACTED&X-Amz-Date=1"},
		{"/a;jsessionid=1;secret=s3cret", "/a;jsessionid=1;secret=REDACTED"},
		{"/a?sig=s3cret&auth=s3cret&key=s3cret&access_token=s3cret&passwd=s3cret&subscription-key=s3cret",
			"/a?sig=REDACTED&auth=REDACTED&key=REDACTED&access_token=REDACTED&passwd=REDACTED&subscription-key=REDACTED"},
		{"/a?page=2&keyword=shoes&author=me&monkey=1", "/a?page=2&keyword=shoes&author=me&monkey=1"},
		{"/a?token={{ env.T }}", "/a?token={{ env.T }}"},                           // a template stays one
		{"http://{{ env.U }}:{{ env.P }}@h/", "http://{{ env.U }}:{{ env.P }}@h/"}, // so do templated credentials
		{"host=db password=s3cret user=app", "host=db password=[REDACTED] user=app"},
		{"mail me@example.com", "mail me@example.com"},
		{"plain text", "plain text"},
	}
	for _, tt := range tests {
		got := Redact(tt.in)
		if got != tt.want {
			t.Errorf("Redact(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
		if again := Redact(got); again != got {
			t.Errorf("Redact is not idempotent on %q: %q", got, again)
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("Redact(%q) keeps the secret", tt.in)
		}
	}
}

// basic is the Authorization value of user and password.
func basic(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

func TestURLCredentialsAreBasicAuth(t *testing.T) {
	env := func(k string) (string, bool) {
		return map[string]string{"BASE": "http://envuser:envs3cret@h:9", "TOK": "envtok"}[k], true
	}
	flow := "scenarios:\n  s:\n    vus: 1\n    duration: 1s\n    flow:\n"
	tests := []struct {
		name      string
		src       string
		url, auth string // step 0's URL and Authorization header as sent
		stored    string // a line the stored source must hold
	}{
		{"base_url", "base_url: http://user:s3cret@h:8080\n" + flow + "      - get: /x\n",
			"http://h:8080/x", basic("user", "s3cret"), `base_url: "http://user:REDACTED@h:8080"`},
		{"percent-encoded", "base_url: 'http://us%20er:p%40s3cret@h'\n" + flow + "      - get: /x\n",
			"http://h/x", basic("us er", "p@s3cret"), `base_url: "http://us%20er:REDACTED@h"`},
		{"a step's URL", flow + "      - get: http://user:s3cret@h/x/{{ vu }}?token=s3cret\n",
			"http://h/x/7?token=s3cret", basic("user", "s3cret"), `- get: "http://user:REDACTED@h/x/{{ vu }}?token=REDACTED"`},
		{"a step's URL is not base_url's", "base_url: http://a:s3cret@h\n" + flow + "      - get: http://k/x\n",
			"http://k/x", "", "base_url: \"http://a:REDACTED@h\""},
		{"a step's header wins", "base_url: http://user:s3cret@h\n" + flow + "      - get: /x\n        headers: {Authorization: Bearer t}\n",
			"http://h/x", "Bearer t", `base_url: "http://user:REDACTED@h"`},
		{"a default header wins", "base_url: http://user:s3cret@h\nheaders: {Authorization: '{{ env.TOK }}'}\n" + flow + "      - get: /x\n",
			"http://h/x", "envtok", `base_url: "http://user:REDACTED@h"`},
		{"from the environment", "base_url: '{{ env.BASE }}'\n" + flow + "      - get: /x\n",
			"http://h:9/x", basic("envuser", "envs3cret"), "base_url: '{{ env.BASE }}'"},
		{"query tokens", "base_url: http://h\n" + flow + "      - get: /x?api_key=s3cret&page=2\n        query: {access_token: s3cret, q: '{{ env.TOK }}'}\n",
			"http://h/x?api_key=s3cret&page=2&access_token=s3cret&q=envtok", "", `query: {access_token: "[REDACTED]", q: '{{ env.TOK }}'}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte(tt.src), env)
			if err != nil {
				t.Fatal(err)
			}
			r := req(t, p, 0, 0)
			if got := render(r.URL, "1"); got != tt.url {
				t.Errorf("URL %q, want %q", got, tt.url)
			}
			if got := headerMap(r)["Authorization"]; got != tt.auth {
				t.Errorf("Authorization %q, want %q", got, tt.auth)
			}
			src := string(p.Source)
			if !strings.Contains(src, tt.stored) || strings.Contains(src, "s3cret") {
				t.Errorf("stored source, want %q in it and no secret:\n%s", tt.stored, src)
			}
			if ep := p.Layout.Endpoints[r.Endpoint].Name; strings.Contains(ep, "s3cret") || strings.Contains(ep, "@") {
				t.Errorf("endpoint named %q", ep)
			}
			if strings.Contains(p.BaseURL, "@") {
				t.Errorf("BaseURL %q keeps the credentials", p.BaseURL)
			}
			again, err := Parse("t.yaml", p.Source, env)
			if err != nil {
				t.Fatalf("the stored source does not parse: %v", err)
			}
			if string(again.Source) != src {
				t.Errorf("parsing the stored source changes it again:\n%s", again.Source)
			}
		})
	}
}

func TestURLModeCredentials(t *testing.T) {
	p, err := FromURL(URLOptions{URL: "http://user:s3cret@127.0.0.1:8080/b?token=s3cret&x=1", Env: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	r := req(t, p, 0, 0)
	if got := render(r.URL); got != "http://127.0.0.1:8080/b?token=s3cret&x=1" {
		t.Errorf("URL %q", got)
	}
	if got := headerMap(r)["Authorization"]; got != basic("user", "s3cret") {
		t.Errorf("Authorization %q", got)
	}
	if strings.Contains(p.Name, "user") || strings.Contains(string(p.Source), "s3cret") {
		t.Errorf("name %q, source:\n%s", p.Name, p.Source)
	}
	_, err = FromURL(URLOptions{URL: "http://user:s3cret@127.0.0.1:99999/b", Env: noEnv})
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("a bad port: %v", err)
	}
}

func TestOutputURLsAreRedactedInTheSource(t *testing.T) {
	src := "base_url: http://h\noutputs:\n  - influxdb=http://h:8086/write?db=k6&u=me&p=s3cret\n  - prometheus-rw=http://user:s3cret@h/api/v1/write\n" +
		"scenarios:\n  s: {vus: 1, duration: 1s, flow: [get: /x]}\n"
	p, err := Parse("t.yaml", []byte(src), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(p.Source), "s3cret") || p.Outputs[0].URL != "http://h:8086/write?db=k6&u=me&p=s3cret" {
		t.Errorf("outputs %+v, source:\n%s", p.Outputs, p.Source)
	}
	if _, err := Parse("t.yaml", p.Source, noEnv); err != nil {
		t.Errorf("the stored source does not parse: %v", err)
	}
}
