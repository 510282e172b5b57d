package grpc

import (
	"errors"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/loadlens/loadlens/internal/boundedfile"
	"github.com/loadlens/loadlens/internal/plan"
)

// maxProtoset bounds the protoset file read, so a wrong path (a disk
// image) cannot fill memory before the run.
const maxProtoset = 64 << 20

// fromProtoset reads a FileDescriptorSet (protoc --descriptor_set_out
// --include_imports, buf build -o) and finds the step's method in it.
func fromProtoset(g *plan.GRPC) (protoreflect.MethodDescriptor, error) {
	b, err := boundedfile.Read(g.Protoset, maxProtoset, true)
	var tl *boundedfile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, atError(g.ProtoAt, "%s is over %d MiB: not a protoset", g.Protoset, maxProtoset>>20)
	case err != nil:
		return nil, atError(g.ProtoAt, "%s: %v", g.Protoset, boundedfile.Cause(err))
	}
	set := &descriptorpb.FileDescriptorSet{}
	if err := proto.Unmarshal(b, set); err != nil {
		return nil, atError(g.ProtoAt, "%s is not a protoset (a FileDescriptorSet): %v", g.Protoset, err)
	}
	files, err := protodesc.NewFiles(set)
	if err != nil {
		return nil, atError(g.ProtoAt, "%s: %v (was it written with --include_imports?)", g.Protoset, err)
	}
	d, err := files.FindDescriptorByName(serviceName(g.Method))
	if err != nil {
		return nil, atError(g.MethodAt, "no service %s in %s", serviceName(g.Method), g.Protoset)
	}
	return method(d, g)
}
