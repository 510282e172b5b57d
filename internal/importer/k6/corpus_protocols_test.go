package k6

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loadlens/loadlens/internal/importer"
)

// protocolCorpus is k6's other gRPC and WebSocket examples
// (testdata/k6/examples-protocols, README.md there) and what the import
// makes of each: a converted one's first notes, a refused one's error.
var protocolCorpus = []struct {
	file  string
	want  outcome
	notes []string
}{
	{"grpc_client_streaming.js", refused, []string{"the default function sends no request the import converts; not converted:\n  line 10: __ENV.GRPC_PROTO_PATH"}},
	{"grpc_reflection.js", converted, []string{"line 22: client.close()"}},
	{"grpc_server_streaming.js", converted, []string{"line 10: __ENV.GRPC_PROTO_PATH", "line 14: client.load's .proto paths"}},
	{"websockets_test-echo.js", converted, []string{"line 10: the subprotocols and params of new WebSocket(url, null, params)", "line 11: ws.binaryType = \"arraybuffer\""}},
	{"websockets_ws.js", refused, []string{"the default function sends no request the import converts; not converted:\n  line 15: ws.binaryType"}},
}

// TestCorpusK6ProtocolExamples imports each of k6's other gRPC and
// WebSocket examples: 3 of the 5 convert; the 2 others are refused naming
// what stops them (a stream's message picked at random, sessions whose
// end is in nested timers; their loops themselves convert).
func TestCorpusK6ProtocolExamples(t *testing.T) {
	files, err := filepath.Glob("../testdata/k6/examples-protocols/*.js")
	if err != nil || len(files) != len(protocolCorpus) {
		t.Fatalf("%d scripts in testdata/k6/examples-protocols, %d in the table (%v)", len(files), len(protocolCorpus), err)
	}
	for _, c := range protocolCorpus {
		t.Run(c.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("../testdata/k6/examples-protocols", c.file))
			if err != nil {
				t.Fatal(err)
			}
			tst, err := Import(src, c.file)
			if c.want == refused {
				if err == nil || !strings.HasPrefix(err.Error(), c.notes[0]) {
					t.Errorf("import: %v, want refused: %s", err, c.notes[0])
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if out, err := importer.Render(tst, "t.yaml"); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			for i, want := range c.notes {
				if i >= len(tst.NotConverted) || !strings.HasPrefix(tst.NotConverted[i], want) {
					t.Errorf("not converted:\n%s\nwant its line %d to start %q", strings.Join(tst.NotConverted, "\n"), i+1, want)
				}
			}
		})
	}
}
