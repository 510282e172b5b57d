package grpc

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// writeProtoset writes the interop service's files as protoc
// --descriptor_set_out --include_imports would, imports first; without
// imports when bare.
func writeProtoset(t *testing.T, bare bool) string {
	t.Helper()
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(fd protoreflect.FileDescriptor)
	add = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		for i := range fd.Imports().Len() {
			if !bare {
				add(fd.Imports().Get(i).FileDescriptor)
			}
		}
		set.File = append(set.File, protodesc.ToFileDescriptorProto(fd))
	}
	add(testgrpc.File_grpc_testing_test_proto)
	b, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "test.protoset")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestProtoset(t *testing.T) {
	addr := startInterop(t, nil)
	notSet := filepath.Join(t.TempDir(), "x.protoset")
	if err := os.WriteFile(notSet, []byte("syntax = \"proto3\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "fifo.protoset")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	at := plan.Error{File: "t.yaml", Line: 9, Column: 19, Field: "scenarios.s.flow[0].protoset"}
	tests := []struct {
		name, set, method, errHas string
	}{
		{"a unary call described by a protoset", writeProtoset(t, false), "grpc.testing.TestService/UnaryCall", ""},
		{"a protoset without its imports", writeProtoset(t, true), "grpc.testing.TestService/UnaryCall", "t.yaml:9:19: scenarios.s.flow[0].protoset: "},
		{"not a protoset", notSet, "grpc.testing.TestService/UnaryCall", "is not a protoset"},
		{"a missing file", filepath.Join(t.TempDir(), "nope.protoset"), "a.B/C", "no such file"},
		{"a named pipe, refused unopened (an open waits for a writer)", fifo, "a.B/C", "not a regular file (a named pipe)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := plan.Session{Protocol: "grpc", Timeout: 5 * time.Second,
				GRPC: &plan.GRPC{Method: tt.method, Protoset: tt.set, ProtoAt: at, Messages: msg(`{"response_size": 1}`)}}
			vu, err := call(t, addr, s)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Errorf("error %v, want one containing %q", err, tt.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r, f := vu.Samples[0], vu.Facts[0]; r.Kind != sample.OK || f.MsgsReceived != 1 {
				t.Errorf("kind %v (%q), received %d", r.Kind, r.Err, f.MsgsReceived)
			}
		})
	}
}
