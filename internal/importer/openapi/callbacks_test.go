package openapi

import (
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

// TestImportCallbacksListed: an operation's callbacks (requests the API
// makes to the client) are listed as not converted, each by its operation
// and name, and the operation itself is still a step.
func TestImportCallbacksListed(t *testing.T) {
	const spec = `openapi: 3.0.0
info: {title: T, version: '1'}
servers: [{url: 'http://127.0.0.1:9'}]
paths:
  /subscribe:
    post:
      responses: {'201': {description: ok}}
      callbacks:
        onEvent:
          '{$request.body#/url}': {post: {responses: {'200': {description: ok}}}}
        onClose:
          '{$request.body#/url}/close': {post: {responses: {'200': {description: ok}}}}
`
	tst, err := Import([]byte(spec), "s.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := importer.Render(tst, "t.yaml"); err != nil || !strings.Contains(string(out), "- post: /subscribe") {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "POST /subscribe: its callback onClose (the API calls it; a test does not)\nPOST /subscribe: its callback onEvent (the API calls it; a test does not)"
	if got := strings.Join(tst.NotConverted, "\n"); got != want {
		t.Errorf("not converted:\n%s\nwant:\n%s", got, want)
	}
}
