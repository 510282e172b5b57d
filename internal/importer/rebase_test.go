package importer

import (
	"slices"
	"testing"
)

// TestRebaseGRPCPaths: a k6 script's client.load paths, relative to the
// script, are written relative to the test file wherever it is written;
// absolute paths stay, and two steps sharing a client's paths are each
// rebased once.
func TestRebaseGRPCPaths(t *testing.T) {
	shared := []string{"../protos"}
	tests := []struct {
		name         string
		from, to     string
		call         GRPCCall
		imports, pro []string
	}{
		{"import paths beside the script", "/src/k6", "/tmp/out", GRPCCall{Protos: []string{"a.proto"}, ImportPaths: []string{"../protos"}},
			[]string{"../../src/protos"}, []string{"a.proto"}},
		{"proto files with no import path", "/src/k6", "/src", GRPCCall{Protos: []string{"p/a.proto"}}, nil, []string{"k6/p/a.proto"}},
		{"absolute paths stay", "/src/k6", "/tmp", GRPCCall{ImportPaths: []string{"/protos"}, Protos: []string{"a.proto"}}, []string{"/protos"}, []string{"a.proto"}},
		{"the same directory", "/src/k6", "/src/k6", GRPCCall{ImportPaths: []string{"../protos"}}, []string{"../protos"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			call := tc.call
			test := &Test{Scenarios: []*Scenario{{Flow: []Step{{Steps: []Step{{GRPC: &call}}}}}}}
			RebaseGRPCPaths(test, tc.from, tc.to)
			if !slices.Equal(call.ImportPaths, tc.imports) || !slices.Equal(call.Protos, tc.pro) {
				t.Errorf("import paths %q, protos %q; want %q, %q", call.ImportPaths, call.Protos, tc.imports, tc.pro)
			}
		})
	}
	a, b := &GRPCCall{ImportPaths: shared}, &GRPCCall{ImportPaths: shared}
	test := &Test{Scenarios: []*Scenario{{Flow: []Step{{GRPC: a}, {Then: []Step{{GRPC: b}}}}}}}
	RebaseGRPCPaths(test, "/src/k6", "/tmp/out")
	if a.ImportPaths[0] != "../../src/protos" || b.ImportPaths[0] != "../../src/protos" || shared[0] != "../protos" {
		t.Errorf("shared paths rebased as %q and %q (the client's own now %q)", a.ImportPaths, b.ImportPaths, shared)
	}
}
