package curl

import (
	"os"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

// render imports text and renders it, failing the test when it does not validate.
func render(t *testing.T, text string) (*importer.Test, string) {
	t.Helper()
	tst, err := Import(text)
	if err != nil {
		t.Fatal(err)
	}
	out, err := importer.Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return tst, string(out)
}

func TestImportCurl(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
		not        []string
	}{
		{"get", `curl https://h.example/a?b=1`, []string{`get: '/a?b=1'`, "name: /a", `base_url: '{{ env("BASE_URL", "https://h.example") }}'`}, nil},
		{"data makes a POST with a form type", `curl http://h/x -d a=1 -d b=2`, []string{"post: /x", `body: 'a=1&b=2'`, "Content-Type: application/x-www-form-urlencoded"}, nil},
		{"explicit method and JSON", `curl -X PUT http://h/x -H 'Content-Type: application/json' --data-raw '{"a":1}'`, []string{"put: /x", `body: '{"a":1}'`}, []string{"x-www-form"}},
		{"clustered short options with attached value", `curl -sSXDELETE http://h/x`, []string{"delete: /x"}, nil},
		{"--json", `curl --json '{"a":1}' http://h/x`, []string{"post: /x", "Accept: application/json", "Content-Type: application/json"}, nil},
		{"basic auth", `curl -u user:pw http://h/`, []string{"Authorization: 'Basic dXNlcjpwdw=='"}, nil},
		{"data-urlencode with -G", `curl -G http://h/s --data-urlencode 'q=a b&c' --data-urlencode x`, []string{`get: '/s?q=a+b%26c&x'`}, nil},
		{"headers from a file", `curl http://h/x -H @` + writeTemp(t, "X-One: 1\r\n\nX-Two: 2\nAccept:\n"), []string{"X-One: '1'", "X-Two: '2'"}, []string{"Accept"}},
		{"head", `curl -I http://h/x`, []string{"head: /x"}, nil},
		{"shell variable", `curl http://h/x -H "Authorization: Bearer $TOKEN"`, []string{`Authorization: 'Bearer {{ env("TOKEN", "") }}'`, "-e NAME=value"}, nil},
		{"single quotes keep $", `curl http://h/x -H 'X: $NOT'`, []string{`X: '$NOT'`}, []string{"env(\"NOT"}},
		{"braces stay literal", `curl http://h/x -d '{{a}}'`, []string{`{{ "{{" }}a}}`}, nil},
		{"cookies and agent", `curl http://h/ -b 'a=1; b=2' -A 'Bot/1' -e http://ref/`, []string{"Cookie: 'a=1; b=2'", "User-Agent: Bot/1", "Referer: 'http://ref/'"}, nil},
		{"multipart", `curl http://h/up -F name=x -F 'doc=<` + writeTemp(t, "hello") + `'`, []string{"post: /up", "multipart/form-data; boundary=", `name=\"doc\"\r\n\r\nhello\r\n`}, nil},
		{"browser noise dropped", `curl http://h/ -H 'sec-ch-ua: x' -H 'Sec-Fetch-Mode: cors' -H 'Priority: u=1' -H 'Accept-Encoding: br' -H 'Accept: */*'`, []string{"Accept: '*/*'"}, []string{"sec-", "Sec-", "Priority", "Accept-Encoding"}},
		{"two commands, one origin", "curl http://h/a\ncurl http://h/b -H 'X: 1'\n", []string{"get: /a", "get: /b"}, nil},
		{"another origin stays absolute", "curl http://h/a\ncurl http://h/b\ncurl https://other/c", []string{"get: 'https://other/c'"}, nil},
		{"timeout", `curl -m 2.5 http://h/`, []string{"timeout: 2.5s"}, nil},
		{"cmd quoting", "curl ^\"http://h/x^\" ^\n  --data-raw ^\"^{^\\^\"a^\\^\":^\\^\"b ^& c^\\^\"^}^\"", []string{`body: '{"a":"b & c"}'`}, nil},
		{"ansi-c quoting", `curl http://h/x --data-raw $'it\'s\nfine'`, []string{`body: "it's\nfine"`}, nil},
		{"bash's '\\'' quote in quotes", `curl http://h/x --data-raw '{"x":"it'\''s"}'`, []string{`body: "{\"x\":\"it's\"}"`}, []string{`\'`}},
		{"an escaped space outside quotes", `curl http://h/x -H X-A:\ b`, []string{"X-A: b"}, nil},
		{"-H Authorization wins over -u, either order", `curl -H 'Authorization: Bearer abc' -u user:pw http://h/ && curl -u user:pw -H 'Authorization: Bearer abc' http://h/`, []string{"Authorization: 'Bearer abc'"}, []string{"Basic"}},
		{"a header named twice is sent once, joined", `curl http://h/ -H 'X-A: 1' -H 'x-a: 2' -H 'Cookie: a=1' -H 'Cookie: b=2'`, []string{"X-A: '1, 2'", "Cookie: 'a=1; b=2'"}, []string{"x-a"}},
		{"-H 'Name:' removes what an option implies", `curl http://h/ -A Bot/1 -H 'User-Agent:'`, nil, []string{"Bot/1"}},
		{"-b twice adds up", `curl http://h/ -b a=1 -b b=2`, []string{"Cookie: 'a=1; b=2'"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, out := render(t, c.text)
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			for _, w := range c.not {
				if strings.Contains(out, w) {
					t.Errorf("has %q:\n%s", w, out)
				}
			}
		})
	}
}

func writeTemp(t *testing.T, content string) string {
	f, err := os.CreateTemp(t.TempDir(), "part")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(content)
	f.Close()
	return f.Name()
}

func TestImportCurlErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"echo hi", "no curl command"},
		{"curl -H 'X: y'", "no URL"},
		{"curl ftp://h/x", "bad URL"},
		{"curl http://h/ -X", "needs a value"},
		{"curl http://h/$(date)", "command substitution"},
	} {
		if _, err := Import(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
}

func TestImportCurlNotConverted(t *testing.T) {
	tst, _ := render(t, `curl http://h/x --proxy http://p:1 -T file.bin --frobnicate`)
	got := strings.Join(tst.NotConverted, "\n")
	for _, w := range []string{"--proxy http://p:1", "--upload-file file.bin", "--frobnicate"} {
		if !strings.Contains(got, w) {
			t.Errorf("not converted lacks %q: %s", w, got)
		}
	}
}

// TestImportCurlShellVariables: shell variables in a URL's path and query
// become {{ env("NAME", "") }} (Twilio's documented command leaked \x00
// markers into the URL), -u with variables is listed as not converted
// rather than written as a valid-looking wrong Basic credential, and a
// variable in the host is refused, naming it.
func TestImportCurlShellVariables(t *testing.T) {
	tst, out := render(t, `curl -X POST "https://api.twilio.com/2010-04-01/Accounts/$TWILIO_ACCOUNT_SID/Messages.json?x=$X" `+
		`--data-urlencode "To=$TO" -u $TWILIO_ACCOUNT_SID:$TWILIO_AUTH_TOKEN`)
	for _, want := range []string{`/Accounts/{{ env("TWILIO_ACCOUNT_SID", "") }}/Messages.json?x={{ env("X", "") }}`,
		"name: '/2010-04-01/Accounts/{TWILIO_ACCOUNT_SID}/Messages.json'", `To={{ env("TO", "") }}`} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x00") || strings.Contains(out, "%00") || strings.Contains(out, "LLxSHVARx") || strings.Contains(out, "Authorization: 'Basic") {
		t.Errorf("markers or a made-up credential leaked:\n%q", out)
	}
	if notes := strings.Join(tst.NotConverted, "\n"); !strings.Contains(notes, "-u $TWILIO_ACCOUNT_SID:$TWILIO_AUTH_TOKEN: its credentials come from shell variables") {
		t.Errorf("-u with variables is not listed as not converted: %s", notes)
	}
	if _, err := Import(`curl https://$HOST/x`); err == nil || !strings.Contains(err.Error(), `the shell variable $HOST names its host`) {
		t.Errorf("a variable host: %v", err)
	}
}
