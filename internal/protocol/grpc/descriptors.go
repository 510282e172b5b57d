package grpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	rpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/loadlens/loadlens/internal/plan"
	"github.com/loadlens/loadlens/internal/sample"
)

// maxReflectedFiles bounds the files a server's reflection may describe
// for one method, so a server that keeps naming dependencies cannot hold
// the run's start.
const maxReflectedFiles = 1000

// fromProtos compiles the step's .proto files (with protocompile; the
// well-known types are built in) and finds its method in them.
func fromProtos(g *plan.GRPC) (protoreflect.MethodDescriptor, error) {
	files, err := compile(g, openProto)
	if err != nil {
		return nil, err
	}
	d, err := files.AsResolver().FindDescriptorByName(serviceName(g.Method))
	if err != nil {
		return nil, atError(g.MethodAt, "no service %s in %s", serviceName(g.Method), strings.Join(g.Protos, ", "))
	}
	return method(d, g)
}

// compile compiles the step's .proto files, opening each file with open.
func compile(g *plan.GRPC, open func(string) (io.ReadCloser, error)) (linker.Files, error) {
	dirs := append([]string(nil), g.ImportDir...)
	names := make([]string, len(g.Protos))
	for i, p := range g.Protos {
		names[i] = importName(p, &dirs)
	}
	c := protocompile.Compiler{Resolver: protocompile.WithStandardImports(&protocompile.SourceResolver{ImportPaths: dirs, Accessor: open})}
	files, err := c.Compile(context.Background(), names...)
	if err != nil {
		return nil, atError(g.ProtoAt, "%v", err)
	}
	return files, nil
}

// SourceFiles returns the files a step's descriptors are read from: its
// .proto files and every one they import (the well-known types, built
// in, excepted), or its protoset; none when the server's reflection
// describes the method. A distributed run sends them to its agents.
func SourceFiles(g *plan.GRPC) ([]string, error) {
	if len(g.Protos) == 0 {
		if g.Protoset != "" {
			return []string{g.Protoset}, nil
		}
		return nil, nil
	}
	var opened []string
	_, err := compile(g, func(path string) (io.ReadCloser, error) {
		f, err := openProto(path)
		if err == nil {
			opened = append(opened, path)
		}
		return f, err
	})
	return opened, err
}

// importName returns the name protocompile opens a .proto file by: as
// written, relative to the import paths; an absolute path relative to the
// import path holding it, else to its own directory, added to dirs.
func importName(p string, dirs *[]string) string {
	if !filepath.IsAbs(p) {
		return filepath.ToSlash(p)
	}
	for _, d := range *dirs {
		if rel, err := filepath.Rel(d, p); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	*dirs = append(*dirs, filepath.Dir(p))
	return filepath.Base(p)
}

// serviceName is the service's full name in package.Service/Method.
func serviceName(m string) protoreflect.FullName {
	svc, _, _ := strings.Cut(m, "/")
	return protoreflect.FullName(svc)
}

// method finds the step's method in the service descriptor d.
func method(d protoreflect.Descriptor, g *plan.GRPC) (protoreflect.MethodDescriptor, error) {
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, atError(g.MethodAt, "%s is not a service", d.FullName())
	}
	_, name, _ := strings.Cut(g.Method, "/")
	md := sd.Methods().ByName(protoreflect.Name(name))
	if md == nil {
		var names []string
		for i := range sd.Methods().Len() {
			names = append(names, string(sd.Methods().Get(i).Name()))
		}
		return nil, atError(g.MethodAt, "service %s has no method %s (it has: %s)", sd.FullName(), name, strings.Join(names, ", "))
	}
	return md, nil
}

// fromReflection asks the server's reflection service (v1) for the file
// that defines the step's service and the files it imports.
func (st *step) fromReflection() (protoreflect.MethodDescriptor, error) {
	g := st.s.GRPC
	cc, err := st.client(func(ctx context.Context, addr string) (net.Conn, error) {
		return st.env.Dialer.DialContext(ctx, "tcp", addr)
	}, func(*error) {})
	if err != nil {
		return nil, atError(g.MethodAt, "%v", err)
	}
	defer cc.Close()
	ctx, cancel := context.WithTimeout(context.Background(), st.s.Timeout)
	defer cancel()
	stream, err := rpb.NewServerReflectionClient(cc).ServerReflectionInfo(ctx)
	if err != nil {
		return nil, atError(g.MethodAt, "asking %s's reflection: %v", g.Target, err)
	}
	defer stream.CloseSend() //nolint:errcheck // the call ends with ctx
	files, err := reflectedFiles(stream, string(serviceName(g.Method)))
	if err != nil {
		return nil, atError(g.MethodAt, "asking %s's reflection (or give the step proto:): %v", g.Target, err)
	}
	d, err := files.FindDescriptorByName(serviceName(g.Method))
	if err != nil {
		return nil, atError(g.MethodAt, "%s's reflection does not describe %s", g.Target, serviceName(g.Method))
	}
	return method(d, g)
}

// reflectedFiles gathers the file defining symbol and its imports, one
// request at a time, and builds them into a registry.
func reflectedFiles(stream rpb.ServerReflection_ServerReflectionInfoClient, symbol string) (*protoregistry.Files, error) {
	have := map[string]*descriptorpb.FileDescriptorProto{}
	req := &rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileContainingSymbol{FileContainingSymbol: symbol}}
	var wanted []string
	for range maxReflectedFiles {
		if err := stream.Send(req); err != nil {
			return nil, err
		}
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the server ended the reflection stream")
		}
		if err != nil {
			return nil, err
		}
		if e := resp.GetErrorResponse(); e != nil {
			return nil, fmt.Errorf("it does not know %s: %s (%s)", what(req), e.GetErrorMessage(), sample.GRPCCodeName(int(e.GetErrorCode())))
		}
		for _, b := range resp.GetFileDescriptorResponse().GetFileDescriptorProto() {
			fd := &descriptorpb.FileDescriptorProto{}
			if err := proto.Unmarshal(b, fd); err != nil {
				return nil, fmt.Errorf("a file descriptor: %w", err)
			}
			have[fd.GetName()] = fd
			wanted = append(wanted, fd.GetDependency()...)
		}
		for len(wanted) > 0 && have[wanted[0]] != nil {
			wanted = wanted[1:]
		}
		if len(wanted) == 0 {
			return newFiles(have)
		}
		req = &rpb.ServerReflectionRequest{MessageRequest: &rpb.ServerReflectionRequest_FileByFilename{FileByFilename: wanted[0]}}
	}
	return nil, fmt.Errorf("more than %d files describe %s", maxReflectedFiles, symbol)
}

// newFiles builds the reflected files into a registry, imports first.
func newFiles(have map[string]*descriptorpb.FileDescriptorProto) (*protoregistry.Files, error) {
	set := &descriptorpb.FileDescriptorSet{}
	for _, fd := range have {
		set.File = append(set.File, fd)
	}
	return protodesc.NewFiles(set)
}

// what names what a reflection request asks for, for errors.
func what(req *rpb.ServerReflectionRequest) string {
	if f := req.GetFileByFilename(); f != "" {
		return "the file " + f
	}
	return req.GetFileContainingSymbol()
}
