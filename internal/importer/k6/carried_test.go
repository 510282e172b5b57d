package k6

import (
	"strings"
	"testing"
)

// TestImportCarriesOverHookTimeoutsAndEnvTargets: k6's setupTimeout and
// teardownTimeout become setup_timeout: and teardown_timeout: (a number is
// milliseconds, as in k6), or a note when the value or the hook is not
// there to carry; and client.connect(__ENV.X || 'host:port') keeps reading
// the environment ({{ env("X", "host:port") }}) now that a grpc: target
// may, instead of writing its default with a note.
func TestImportCarriesOverHookTimeoutsAndEnvTargets(t *testing.T) {
	const httpHead = "import http from 'k6/http';\n"
	const grpcHead = "import grpc from 'k6/net/grpc';\nconst client = new grpc.Client();\n"
	for _, c := range []struct {
		name, src   string
		want, never []string
		note        string
	}{
		{"both timeouts", httpHead + "export const options = {setupTimeout: '30s', teardownTimeout: 90000};\n" +
			"export function setup() { http.get('http://h/login'); }\nexport default function () { http.get('http://h/'); }\n" +
			"export function teardown() { http.get('http://h/logout'); }",
			[]string{"setup_timeout: 30s\nsetup:", "teardown_timeout: 90000ms\nteardown:"}, []string{"option setupTimeout", "option teardownTimeout"}, ""},
		{"a timeout of no hook is a note", httpHead + "export const options = {teardownTimeout: '1m'};\nexport default function () { http.get('http://h/'); }",
			nil, []string{"teardown_timeout"}, "line 2: option teardownTimeout: the script has no teardown the import converts"},
		{"a timeout read from the environment is a note", httpHead + "export const options = {setupTimeout: __ENV.T || '30s'};\n" +
			"export function setup() { http.get('http://h/login'); }\nexport default function () { http.get('http://h/'); }",
			[]string{"setup:"}, []string{"setup_timeout"}, "line 2: option setupTimeout: a duration the import cannot work out"},
		{"an env target with its default, plaintext", grpcHead + "export default () => {\n  client.connect(__ENV.GRPC_ADDR || '127.0.0.1:10000', {plaintext: true});\n  client.invoke('a.B/C', {});\n}",
			[]string{`- grpc: 'grpc://{{ env("GRPC_ADDR", "127.0.0.1:10000") }}'`}, []string{"__ENV.GRPC_ADDR"}, ""},
		{"an env target through a const, TLS", grpcHead + "const ADDR = __ENV.ADDR || 'api.local:443';\nexport default () => {\n  client.connect(ADDR);\n  client.invoke('a.B/C', {});\n}",
			[]string{`- grpc: 'grpcs://{{ env("ADDR", "api.local:443") }}'`}, []string{"__ENV.ADDR"}, ""},
		{"a default with a scheme is written as itself", grpcHead + "export default () => {\n  client.connect(__ENV.A || 'grpc://h:1', {plaintext: true});\n  client.invoke('a.B/C', {});\n}",
			[]string{"- grpc: 'grpc://h:1'"}, []string{"env("}, "__ENV.A: a gRPC address with a scheme (grpc://h:1) is written as its default"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tst, out := importRendered(t, c.src)
			notes := strings.Join(tst.NotConverted, "\n")
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
			for _, n := range c.never {
				if strings.Contains(string(out), n) || strings.Contains(notes, n) {
					t.Errorf("says %q:\n%s", n, out)
				}
			}
			if c.note != "" && !strings.Contains(notes, c.note) {
				t.Errorf("not converted lacks %q:\n%s", c.note, notes)
			}
		})
	}
}
