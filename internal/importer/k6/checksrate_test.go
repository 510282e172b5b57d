package k6

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

// checksScript reads a value from a checked response, as trial C's did:
// k6 counts 2 checks per iteration (and the setup's), not the read.
const checksScript = `import http from 'k6/http';
import { check } from 'k6';
import { Rate } from 'k6/metrics';
const ok = new Rate('ok');
export const options = { thresholds: { checks: ['rate>0.99'] } };
export function setup() {
  const res = http.post('http://h/login', '{}');
  check(res, { 'login ok': (r) => r.status === 201 });
  return { token: res.json('token') };
}
export default function (data) {
  const r = http.get('http://h/products');
  const passed = check(r, { 'list 200': (r) => r.status === 200, 'has items': (r) => r.body.includes('items') });
  const id = r.json('id');
  ok.add(passed);
}
`

// TestImportChecksRate: the imported test's checks metric counts what k6's
// does, the script's check() calls; an extraction the import made is no
// check, so a response without the value fails nothing k6 would pass.
func TestImportChecksRate(t *testing.T) {
	tst, err := Import([]byte(checksScript), "checks.js")
	if err != nil {
		t.Fatal(err)
	}
	out, err := importer.Render(tst, "t.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// every extraction has a default, so none is the implicit check "extract <var>" (docs/test-format.md)
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, ": {json: ") && !strings.HasSuffix(line, ", default: ''}") {
			t.Errorf("an extraction without a default, a check k6 does not count: %s\n%s", line, out)
		}
	}
	for _, want := range []string{
		"id: {json: '$.id', default: ''}", "token: {json: '$.token', default: ''}",
		"- if: {checks: passed}", // the read does not hold back ok.add(passed): it is no check
		"# A value read from a response (res.json()) is extracted with default: ''",
		"# The setup's checks are not in the checks metric (k6 counts them)",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}
